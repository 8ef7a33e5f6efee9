#ifndef C_DI_THREAD_LOCAL_H
#define C_DI_THREAD_LOCAL_H

// One pointer per thread for DICore's resolution stack.
//
// Swift has no thread-local variables of its own, and `pthread_getspecific` behind a lazily created
// key costs a `swift_once` check and a library call on every read. Every synchronous build reads this
// slot twice, and every property wrapper once, so DICore keeps it as a C11 `_Thread_local`: one load
// from the thread pointer. The slot does not own the stack; DICore's pthread key destructor releases it
// when the thread exits, and clears the slot first.

#include <stdint.h>

#if defined(__ELF__)
// Initial-exec: a fixed offset from the thread pointer, also when DICore is part of a shared library.
#define C_DI_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define C_DI_TLS_MODEL
#endif

extern _Thread_local void *_Nullable c_di_resolution_stack C_DI_TLS_MODEL;

/// The calling thread's resolution stack, unretained; NULL before its first build.
static inline void *_Nullable c_di_resolution_stack_get(void) {
    return c_di_resolution_stack;
}

/// Sets the calling thread's resolution stack (unretained; DICore owns it through its pthread key).
static inline void c_di_resolution_stack_set(void *_Nullable stack) {
    c_di_resolution_stack = stack;
}

/// The lowest address of the calling thread's stack (stacks grow down towards it); 0 where the platform
/// does not tell. DICore asks once per thread, so that a deep resolution stops with an error before it
/// overflows the stack.
uintptr_t c_di_thread_stack_lowest_address(void);

#endif

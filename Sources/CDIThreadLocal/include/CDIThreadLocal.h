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

// ---------------------------------------------------------------------------------------------------------
// Epochs for freeing registration tables that lock-free readers may still be reading.
//
// A reader announces, in its thread's word, the global epoch at which it started reading (0: the thread is
// not registered yet; 1: registered, not reading; 2 and up: reading since that epoch). A container that
// replaces its table stamps the old one with the current epoch and advances the epoch; it may free the old
// table once no thread announces an epoch at or below that stamp. So that the announcement costs a reader
// no fence, the freeing side runs a process-wide barrier (Linux `membarrier`) before it reads the words:
// after it, every reader has either published its announcement or will load the new table. Where no such
// barrier exists, `c_di_readers_fence` is set and readers pay a full fence instead.

extern _Thread_local uintptr_t c_di_reader_epoch C_DI_TLS_MODEL;
extern uintptr_t c_di_global_epoch;
extern int c_di_readers_fence;

/// The calling thread's word: 0, 1, or the epoch it reads since.
static inline uintptr_t c_di_reader_state(void) {
    return __atomic_load_n(&c_di_reader_epoch, __ATOMIC_RELAXED);
}

/// Announces that the calling thread reads tables from now on, since the current epoch.
static inline void c_di_reader_enter(void) {
    __atomic_store_n(&c_di_reader_epoch, __atomic_load_n(&c_di_global_epoch, __ATOMIC_ACQUIRE), __ATOMIC_RELAXED);
    if (__builtin_expect(c_di_readers_fence, 0)) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
}

/// Announces that the calling thread no longer reads tables (`state` is 1), or restores a word.
static inline void c_di_reader_leave(uintptr_t state) {
    __atomic_store_n(&c_di_reader_epoch, state, __ATOMIC_RELEASE);
}

/// The address of the calling thread's word, for the list the freeing side scans.
uintptr_t *_Nonnull c_di_reader_epoch_address(void);

/// Another thread's word, read by the freeing side.
static inline uintptr_t c_di_reader_state_at(const uintptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Stamps a retired table: returns the current epoch and advances it.
static inline uintptr_t c_di_epoch_advance(void) {
    return __atomic_fetch_add(&c_di_global_epoch, 1, __ATOMIC_ACQ_REL);
}

/// Sets up the process-wide barrier once (or `c_di_readers_fence` where there is none).
void c_di_process_barrier_setup(void);

/// Makes every thread's earlier stores visible to the caller, without the readers fencing.
void c_di_process_barrier(void);

#endif

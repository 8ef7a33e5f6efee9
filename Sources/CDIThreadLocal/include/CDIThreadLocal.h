#ifndef C_DI_THREAD_LOCAL_H
#define C_DI_THREAD_LOCAL_H

// One pointer per thread for DICore's resolution stack.
//
// Swift has no thread-local variables of its own, and `pthread_getspecific` behind a lazily created
// key costs a `swift_once` check and a library call on every read. Every synchronous build reads this
// slot twice, and every property wrapper once, so DICore keeps it as a C11 `_Thread_local`: one load
// from the thread pointer. The slot does not own the stack; DICore's pthread key destructor releases it
// when the thread exits, and clears the slot first.

#include <pthread.h>
#include <stdint.h>

#include "CDIRuntimeReferences.h"

#if defined(__ELF__)
// Initial-exec: a fixed offset from the thread pointer, also when DICore is part of a shared library.
#define C_DI_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define C_DI_TLS_MODEL
#endif

extern _Thread_local void *_Nullable c_di_resolution_stack C_DI_TLS_MODEL;

/// DICore's `Container.resolutionDepthLimit`: a C global so that every build reads it with one plain load.
extern long c_di_depth_limit;

static inline long c_di_depth_limit_get(void) {
    return __atomic_load_n(&c_di_depth_limit, __ATOMIC_RELAXED);
}

static inline void c_di_depth_limit_set(long limit) {
    __atomic_store_n(&c_di_depth_limit, limit, __ATOMIC_RELAXED);
}

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

/// Where the calling thread's stack is now (the caller's frame), to compare with the lowest address.
static inline __attribute__((always_inline)) uintptr_t c_di_stack_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

// ---------------------------------------------------------------------------------------------------------
// Read sections, for freeing registration tables that lock-free readers may still be reading.
//
// Each thread counts its read sections in a thread-local word: 0 until the thread is registered, then even
// while it reads no table and odd while it does (entering adds 1, leaving adds 1 more). A container that
// wants to free replaced tables first runs a process-wide barrier, then notes the odd words: a thread whose
// word was even then will load the new table; a thread whose word was odd may still read an old one, until
// its word changes. So that entering costs a reader no fence, the barrier is on the freeing side (Linux
// `membarrier`, or an `mprotect` round trip that makes the kernel interrupt every CPU running the process);
// elsewhere readers fence.

extern _Thread_local uintptr_t c_di_read_count C_DI_TLS_MODEL;

/// The calling thread's count: 0 (not registered), even (not reading) or odd (reading).
static inline uintptr_t c_di_read_count_get(void) {
    return __atomic_load_n(&c_di_read_count, __ATOMIC_RELAXED);
}

/// Enters a read section from `count`, the calling thread's count: even makes it odd; odd (a section nested
/// in another) stores the same value again, so that the caller needs no branch.
static inline void c_di_read_begin(uintptr_t count) {
    __atomic_store_n(&c_di_read_count, count | 1, __ATOMIC_RELAXED);
#if defined(__linux__)
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/// Leaves the read section entered from `count`: even moves on to the next even count; odd (a nested
/// section) leaves the outer section's odd count in place.
static inline void c_di_read_end(uintptr_t count) {
    // An opaque step for the compiler: Swift's optimizer may otherwise move the retain of a value read inside
    // the section (the instance a resolve returns) after this store, when the table that keeps the value
    // alive may already be freed.
    __asm__ __volatile__("" ::: "memory");
    __atomic_store_n(&c_di_read_count, count + ((~count & 1) << 1), __ATOMIC_RELEASE);
}

/// Sets the calling thread's count (registration, thread exit).
static inline void c_di_read_count_set(uintptr_t count) {
    __atomic_store_n(&c_di_read_count, count, __ATOMIC_RELEASE);
}

/// The address of the calling thread's count, as an integer: the list the freeing side reads only compares
/// it and hands it back to `c_di_read_count_at` while the thread is listed.
uintptr_t c_di_read_count_address(void);

/// Gives `key` a value on the calling thread (any non-NULL value; the count's address), so that the key's
/// destructor runs when the thread exits.
void c_di_read_count_watch_exit(pthread_key_t key);

/// Another thread's count, read by the freeing side; `word` is an address from `c_di_read_count_address`.
static inline uintptr_t c_di_read_count_at(uintptr_t word) {
    return __atomic_load_n((const uintptr_t *)word, __ATOMIC_ACQUIRE);
}

/// Makes every other thread's earlier stores visible to the caller, without those threads fencing.
void c_di_process_barrier(void);

// The shard of a container's list of children that a thread adds to (DICore's `ChildList`): a number given to
// each thread the first time it asks, counted up process-wide, so that threads running at once add to different
// shards.

extern _Thread_local unsigned c_di_child_shard C_DI_TLS_MODEL;

/// Hands out the next thread's shard number (from 1; 0 means "not given yet").
unsigned c_di_child_shard_next(void);

/// The calling thread's shard number, any value but 0; the caller takes it modulo its number of shards.
static inline unsigned c_di_child_shard_get(void) {
    unsigned shard = c_di_child_shard;
    if (shard == 0) {
        shard = c_di_child_shard_next();
        c_di_child_shard = shard;
    }
    return shard;
}

/// A monotonic clock, in nanoseconds: what orders a container's children, oldest first, whichever threads
/// made them (a process-wide counter would be one more cache line that every core writes for every child).
uint64_t c_di_monotonic_nanoseconds(void);

#endif

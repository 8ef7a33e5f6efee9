#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CDIThreadLocal.h"
#include <pthread.h>
#include <time.h>

_Thread_local void *_Nullable c_di_resolution_stack C_DI_TLS_MODEL = 0;
long c_di_depth_limit = 200;

uintptr_t c_di_thread_stack_lowest_address(void) {
#if defined(__APPLE__)
    pthread_t thread = pthread_self();
    return (uintptr_t)pthread_get_stackaddr_np(thread) - (uintptr_t)pthread_get_stacksize_np(thread);
#elif defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    void *base = 0;
    size_t size = 0;
    int status = pthread_attr_getstack(&attributes, &base, &size);
    pthread_attr_destroy(&attributes);
    return status == 0 ? (uintptr_t)base : 0;
#else
    return 0;
#endif
}

_Thread_local uintptr_t c_di_read_count C_DI_TLS_MODEL = 0;

_Thread_local unsigned c_di_child_shard C_DI_TLS_MODEL = 0;
static unsigned c_di_child_shards_given = 0;

unsigned c_di_child_shard_next(void) {
    unsigned shard = __atomic_add_fetch(&c_di_child_shards_given, 1, __ATOMIC_RELAXED);
    return shard == 0 ? 1 : shard;
}

uint64_t c_di_monotonic_nanoseconds(void) {
#if defined(__APPLE__)
    return clock_gettime_nsec_np(CLOCK_UPTIME_RAW);
#else
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#endif
}

uintptr_t c_di_read_count_address(void) {
    return (uintptr_t)&c_di_read_count;
}

void c_di_read_count_watch_exit(pthread_key_t key) {
    pthread_setspecific(key, &c_di_read_count);
}

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_once_t c_di_barrier_once = PTHREAD_ONCE_INIT;
static int c_di_membarrier = 0;
static volatile int *c_di_barrier_page = 0;
static long c_di_page_size = 0;

static void c_di_barrier_setup(void) {
    long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (supported >= 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED)
        && syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        c_di_membarrier = 1;
        return;
    }
    c_di_page_size = sysconf(_SC_PAGESIZE);
    void *page = mmap(0, (size_t)c_di_page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    c_di_barrier_page = page == MAP_FAILED ? 0 : (volatile int *)page;
}

void c_di_process_barrier(void) {
    pthread_once(&c_di_barrier_once, c_di_barrier_setup);
    if (c_di_membarrier && syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
    if (c_di_barrier_page) {
        // Dirtying a page and taking write access away makes the kernel flush it from the TLB of every CPU
        // that runs a thread of this process, which interrupts them: the same effect as membarrier. The
        // caller holds DICore's readers lock, so calls do not interleave.
        mprotect((void *)c_di_barrier_page, (size_t)c_di_page_size, PROT_READ | PROT_WRITE);
        *c_di_barrier_page = 1;
        mprotect((void *)c_di_barrier_page, (size_t)c_di_page_size, PROT_READ);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#else
void c_di_process_barrier(void) {
    // Readers fence on entry here (see the header).
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#endif

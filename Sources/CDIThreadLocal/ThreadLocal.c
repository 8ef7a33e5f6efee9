#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CDIThreadLocal.h"
#include <pthread.h>

_Thread_local void *_Nullable c_di_resolution_stack C_DI_TLS_MODEL = 0;

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

_Thread_local uintptr_t c_di_reader_epoch C_DI_TLS_MODEL = 0;
uintptr_t c_di_global_epoch = 2;
int c_di_readers_fence = 0;

uintptr_t *c_di_reader_epoch_address(void) {
    return &c_di_reader_epoch;
}

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

static int c_di_membarrier_ready = 0;

void c_di_process_barrier_setup(void) {
    long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (supported >= 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED)
        && syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        __atomic_store_n(&c_di_membarrier_ready, 1, __ATOMIC_RELEASE);
    } else {
        __atomic_store_n(&c_di_readers_fence, 1, __ATOMIC_SEQ_CST);
    }
}

void c_di_process_barrier(void) {
    if (__atomic_load_n(&c_di_membarrier_ready, __ATOMIC_ACQUIRE)
        && syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) {
        return;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#else
void c_di_process_barrier_setup(void) {
    __atomic_store_n(&c_di_readers_fence, 1, __ATOMIC_SEQ_CST);
}

void c_di_process_barrier(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#endif

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

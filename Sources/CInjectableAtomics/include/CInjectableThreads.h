// A thread that may end anywhere, for InjectableKit's lifetime probe (see OverrideLifetimes):
// POSIX threads, the same calls on every platform (Apple's and Linux).
//
// Internal to the library: not part of its API.
#ifndef C_INJECTABLE_THREADS_H
#define C_INJECTABLE_THREADS_H

#include <pthread.h>
#include <stddef.h>

/// Runs `body(context)` on a new thread and waits until it ends, by returning or by
/// `ik_end_thread()`. Returns 0, or the error that kept the thread from starting.
static inline int ik_run_on_new_thread(void *(*body)(void *), void *context) {
    pthread_t thread;
    int error = pthread_create(&thread, NULL, body, context);
    if (error != 0) return error;
    return pthread_join(thread, NULL);
}

/// Ends the calling thread, which `ik_run_on_new_thread` started, without returning.
__attribute__((noreturn)) static inline void ik_end_thread(void) {
    pthread_exit(NULL);
}

#endif

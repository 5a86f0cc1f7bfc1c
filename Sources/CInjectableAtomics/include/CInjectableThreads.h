// A thread that may end anywhere, for InjectableKit's lifetime probe (see OverrideLifetimes):
// POSIX threads, the same calls on every platform (Apple's and Linux), in Threads.c so that
// this header brings no system module into the Swift code that imports it.
//
// Internal to the library: not part of its API.
#ifndef C_INJECTABLE_THREADS_H
#define C_INJECTABLE_THREADS_H

/// Runs `body(context)` on a new thread and waits until it ends, by returning or by
/// `ik_end_thread()`. Returns 0, or the error that kept the thread from starting.
int ik_run_on_new_thread(void *(*body)(void *), void *context);

/// Ends the calling thread, which `ik_run_on_new_thread` started, without returning.
__attribute__((noreturn)) void ik_end_thread(void);

#endif

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

/// This thread's InjectableKit state (an unretained `ThreadState`), or NULL before its first
/// use on this thread and once released as the thread ends: a thread-local read, cheaper than
/// `pthread_getspecific`, whose key still releases the state.
extern __thread void *ik_thread_state;

/// How many override layers this thread has put in effect outside any task (where a task-local
/// value lives in the thread's own storage): while it is 0 and no task runs, none is in effect.
extern __thread unsigned long ik_thread_layers;

/// The task that runs the calling code, or NULL: the Swift runtime's own entry point (what
/// `withUnsafeCurrentTask` calls), without the generic closure around it.
__attribute__((swiftcall)) void *swift_task_getCurrent(void);

/// Whether a Swift task runs the calling code.
static inline __attribute__((always_inline)) int ik_in_task(void) {
    return swift_task_getCurrent() != 0;
}

static inline __attribute__((always_inline)) void *ik_thread_state_get(void) {
    return ik_thread_state;
}
static inline __attribute__((always_inline)) void ik_thread_state_set(void *state) {
    ik_thread_state = state;
}
static inline __attribute__((always_inline)) unsigned long ik_thread_layers_get(void) {
    return ik_thread_layers;
}
static inline __attribute__((always_inline)) void ik_thread_layers_add(long change) {
    ik_thread_layers += (unsigned long)change;
}

#endif

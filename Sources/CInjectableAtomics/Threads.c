#include "CInjectableThreads.h"

#include <pthread.h>
#include <stddef.h>

__thread void *ik_thread_state;
__thread unsigned long ik_thread_layers;

int ik_run_on_new_thread(void *(*body)(void *), void *context) {
    pthread_t thread;
    int error = pthread_create(&thread, NULL, body, context);
    if (error != 0) return error;
    return pthread_join(thread, NULL);
}

void ik_end_thread(void) {
    pthread_exit(NULL);
}

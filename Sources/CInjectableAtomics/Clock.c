#define _POSIX_C_SOURCE 199309L
#include "CInjectableClock.h"

#include <time.h>

uint64_t ik_monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

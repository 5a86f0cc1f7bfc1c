// A monotonic clock for InjectableKit's time to live, the same call on every platform (Apple's
// and Linux): POSIX `clock_gettime(CLOCK_MONOTONIC)`, which Apple's systems have from iOS 10 and
// macOS 10.12, below the package's floor (Swift's `ContinuousClock` needs iOS 16 and macOS 13).
// On Apple's systems it keeps counting while the device sleeps, as `ContinuousClock` does.
//
// Internal to the library: not part of its API.
#ifndef C_INJECTABLE_CLOCK_H
#define C_INJECTABLE_CLOCK_H

#include <stdint.h>
#include <time.h>

/// Nanoseconds since an arbitrary moment, never going back.
static inline uint64_t ik_monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

#endif

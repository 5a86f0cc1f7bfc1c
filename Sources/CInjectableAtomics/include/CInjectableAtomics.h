// Atomic operations on word-sized integers for InjectableKit, the same code on every platform
// (Apple's and Linux): the compiler's atomic builtins (`__atomic_*`, which Clang and GCC
// provide, with the C11 memory model's orders), inlined into the Swift code that calls them.
// Every operation names its memory order; a word is only ever accessed through these.
// NB: builtins on plain integers rather than <stdatomic.h>'s `_Atomic` types: no cast of a
// plain word to an `_Atomic` one, and no header that a client compiling this module as C++
// (Swift's C++ interoperability) might reject.
//
// Internal to the library: not part of its API.
#ifndef C_INJECTABLE_ATOMICS_H
#define C_INJECTABLE_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

#define IK_INLINE static inline __attribute__((always_inline))

// MARK: - Words (uintptr_t)

IK_INLINE uintptr_t ik_load_relaxed(uintptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}
IK_INLINE uintptr_t ik_load_acquire(uintptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}
IK_INLINE void ik_store_relaxed(uintptr_t *word, uintptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}
IK_INLINE void ik_store_release(uintptr_t *word, uintptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}
IK_INLINE void ik_store_seq_cst(uintptr_t *word, uintptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
}
IK_INLINE uintptr_t ik_load_seq_cst(uintptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}
IK_INLINE uintptr_t ik_exchange_acquire(uintptr_t *word, uintptr_t value) {
    return __atomic_exchange_n(word, value, __ATOMIC_ACQUIRE);
}
IK_INLINE uintptr_t ik_exchange_release(uintptr_t *word, uintptr_t value) {
    return __atomic_exchange_n(word, value, __ATOMIC_RELEASE);
}
IK_INLINE uintptr_t ik_exchange_acq_rel(uintptr_t *word, uintptr_t value) {
    return __atomic_exchange_n(word, value, __ATOMIC_ACQ_REL);
}
// The compare-and-swaps take `expected` by value, so that no Swift local's address is taken
// (which would make Swift give the caller a stack protector).

/// Stores `desired` if the word holds `expected` (acquire on success, relaxed on failure), and
/// returns whether it did.
IK_INLINE bool ik_compare_exchange_acquire(uintptr_t *word, uintptr_t expected, uintptr_t desired) {
    return __atomic_compare_exchange_n(
        word, &expected, desired, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}
/// Stores `desired` if the word holds `expected` (release on success, relaxed on failure), and
/// returns whether it did.
IK_INLINE bool ik_compare_exchange_release(uintptr_t *word, uintptr_t expected, uintptr_t desired) {
    return __atomic_compare_exchange_n(
        word, &expected, desired, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}
/// Stores `desired` if the word holds `expected` (acquire either way), and returns whether it
/// did.
IK_INLINE bool ik_compare_exchange_acquire_acquire(
    uintptr_t *word, uintptr_t expected, uintptr_t desired) {
    return __atomic_compare_exchange_n(
        word, &expected, desired, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
}
/// Adds `value` (wrapping) and returns the word's old value.
IK_INLINE uintptr_t ik_fetch_add_relaxed(uintptr_t *word, uintptr_t value) {
    return __atomic_fetch_add(word, value, __ATOMIC_RELAXED);
}
IK_INLINE uintptr_t ik_fetch_add_acq_rel(uintptr_t *word, uintptr_t value) {
    return __atomic_fetch_add(word, value, __ATOMIC_ACQ_REL);
}
IK_INLINE uintptr_t ik_fetch_add_seq_cst(uintptr_t *word, uintptr_t value) {
    return __atomic_fetch_add(word, value, __ATOMIC_SEQ_CST);
}
IK_INLINE uintptr_t ik_fetch_sub_relaxed(uintptr_t *word, uintptr_t value) {
    return __atomic_fetch_sub(word, value, __ATOMIC_RELAXED);
}
/// Sets the bits of `mask`.
IK_INLINE void ik_fetch_or_relaxed(uintptr_t *word, uintptr_t mask) {
    __atomic_fetch_or(word, mask, __ATOMIC_RELAXED);
}
/// Keeps only the bits of `mask`.
IK_INLINE void ik_fetch_and_relaxed(uintptr_t *word, uintptr_t mask) {
    __atomic_fetch_and(word, mask, __ATOMIC_RELAXED);
}

// MARK: - The library's static words, at fixed addresses

/// The library's static atomic words (each a `uintptr_t`), by name.
enum ik_static_word {
    IK_MEMO_GENERATION,  // MemoTable.generation: starts at 1
    IK_MEMO_DETOURS,  // MemoTable.detours
    IK_MEMO_CURRENT,  // MemoTable.current
    IK_SEALED,  // Sealing.sealed
    IK_DIAGNOSTICS_ON,  // Diagnostics.isOn
    IK_DIAGNOSTICS_GLOBAL,  // Diagnostics.isGlobal
    IK_TEST_LAYERS_WATCHING,  // TestLayers.watching
    IK_TEST_REPORTER,  // TestHook.installed
    IK_AUTO_REGISTRATION,  // AutoRegistration.state
    IK_STATIC_WORD_COUNT
};

/// 64-bit counters (serial numbers that must not wrap on 32-bit platforms), by name.
enum ik_static_counter {
    IK_ENTRY_SERIALS,  // Entry.serials
    IK_REGISTRY_SERIALS,  // OverrideRegistry.serials
    IK_THREAD_COUNT,  // ThreadState.threadCount
    IK_ASYNC_BUILDS_STARTED,  // AsyncBuild.serial
    IK_STATIC_COUNTER_COUNT
};

// Hidden: the library's own code reaches them directly, not through a table of addresses.
extern __attribute__((visibility("hidden"))) uintptr_t ik_static_words[IK_STATIC_WORD_COUNT];
extern __attribute__((visibility("hidden"))) uint64_t ik_static_counters[IK_STATIC_COUNTER_COUNT];

/// The address of a static word: fixed for the life of the process.
IK_INLINE uintptr_t *ik_static_word_address(enum ik_static_word name) {
    return &ik_static_words[name];
}

/// Adds one to a static counter (relaxed) and returns the new value.
IK_INLINE uint64_t ik_static_counter_next(enum ik_static_counter name) {
    return __atomic_fetch_add(&ik_static_counters[name], 1, __ATOMIC_RELAXED) + 1;
}

#undef IK_INLINE

#endif

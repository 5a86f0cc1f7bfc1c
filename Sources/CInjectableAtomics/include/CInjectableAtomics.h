// Atomic operations on word-sized integers for InjectableKit, the same code on every platform
// (Apple's and Linux): C11 atomics that the compiler inlines into the Swift code that calls
// them. Every operation names its memory order; a word is only ever accessed through these.
//
// Internal to the library: not part of its API.
#ifndef C_INJECTABLE_ATOMICS_H
#define C_INJECTABLE_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define IK_INLINE static inline __attribute__((always_inline))
#define IK_WORD(pointer) ((_Atomic(uintptr_t) *)(pointer))
#define IK_U64(pointer) ((_Atomic(uint64_t) *)(pointer))

// MARK: - Words (uintptr_t)

IK_INLINE uintptr_t ik_load_relaxed(uintptr_t *word) {
    return atomic_load_explicit(IK_WORD(word), memory_order_relaxed);
}
IK_INLINE uintptr_t ik_load_acquire(uintptr_t *word) {
    return atomic_load_explicit(IK_WORD(word), memory_order_acquire);
}
IK_INLINE void ik_store_relaxed(uintptr_t *word, uintptr_t value) {
    atomic_store_explicit(IK_WORD(word), value, memory_order_relaxed);
}
IK_INLINE void ik_store_release(uintptr_t *word, uintptr_t value) {
    atomic_store_explicit(IK_WORD(word), value, memory_order_release);
}
IK_INLINE void ik_store_seq_cst(uintptr_t *word, uintptr_t value) {
    atomic_store_explicit(IK_WORD(word), value, memory_order_seq_cst);
}
IK_INLINE uintptr_t ik_load_seq_cst(uintptr_t *word) {
    return atomic_load_explicit(IK_WORD(word), memory_order_seq_cst);
}
IK_INLINE uintptr_t ik_exchange_acquire(uintptr_t *word, uintptr_t value) {
    return atomic_exchange_explicit(IK_WORD(word), value, memory_order_acquire);
}
IK_INLINE uintptr_t ik_exchange_release(uintptr_t *word, uintptr_t value) {
    return atomic_exchange_explicit(IK_WORD(word), value, memory_order_release);
}
IK_INLINE uintptr_t ik_exchange_acq_rel(uintptr_t *word, uintptr_t value) {
    return atomic_exchange_explicit(IK_WORD(word), value, memory_order_acq_rel);
}
// The compare-and-swaps take `expected` by value, so that no Swift local's address is taken
// (which would make Swift give the caller a stack protector).

/// Stores `desired` if the word holds `expected` (acquire on success, relaxed on failure), and
/// returns whether it did.
IK_INLINE bool ik_compare_exchange_acquire(uintptr_t *word, uintptr_t expected, uintptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        IK_WORD(word), &expected, desired, memory_order_acquire, memory_order_relaxed);
}
/// Stores `desired` if the word holds `expected` (acquire either way), and returns whether it
/// did.
IK_INLINE bool ik_compare_exchange_acquire_acquire(
    uintptr_t *word, uintptr_t expected, uintptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        IK_WORD(word), &expected, desired, memory_order_acquire, memory_order_acquire);
}
/// Adds `value` (wrapping) and returns the word's old value.
IK_INLINE uintptr_t ik_fetch_add_relaxed(uintptr_t *word, uintptr_t value) {
    return atomic_fetch_add_explicit(IK_WORD(word), value, memory_order_relaxed);
}
IK_INLINE uintptr_t ik_fetch_add_acq_rel(uintptr_t *word, uintptr_t value) {
    return atomic_fetch_add_explicit(IK_WORD(word), value, memory_order_acq_rel);
}
IK_INLINE uintptr_t ik_fetch_add_seq_cst(uintptr_t *word, uintptr_t value) {
    return atomic_fetch_add_explicit(IK_WORD(word), value, memory_order_seq_cst);
}
IK_INLINE uintptr_t ik_fetch_sub_relaxed(uintptr_t *word, uintptr_t value) {
    return atomic_fetch_sub_explicit(IK_WORD(word), value, memory_order_relaxed);
}
/// Sets the bits of `mask`.
IK_INLINE void ik_fetch_or_relaxed(uintptr_t *word, uintptr_t mask) {
    atomic_fetch_or_explicit(IK_WORD(word), mask, memory_order_relaxed);
}
/// Keeps only the bits of `mask`.
IK_INLINE void ik_fetch_and_relaxed(uintptr_t *word, uintptr_t mask) {
    atomic_fetch_and_explicit(IK_WORD(word), mask, memory_order_relaxed);
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
    return atomic_fetch_add_explicit(IK_U64(&ik_static_counters[name]), 1, memory_order_relaxed) + 1;
}

#undef IK_WORD
#undef IK_U64
#undef IK_INLINE

#endif

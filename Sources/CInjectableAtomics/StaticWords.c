#include "CInjectableAtomics.h"

uintptr_t ik_static_words[IK_STATIC_WORD_COUNT] = {[IK_MEMO_GENERATION] = 1};
uint64_t ik_static_counters[IK_STATIC_COUNTER_COUNT];

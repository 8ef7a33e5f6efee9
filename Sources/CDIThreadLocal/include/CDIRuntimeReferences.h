#ifndef C_DI_RUNTIME_REFERENCES_H
#define C_DI_RUNTIME_REFERENCES_H

// The one entry point of the Swift runtime's reference counting that Swift code cannot name, for DICore's
// `Unsafe.Unowned.retainedUnlessDeinitialising()` (its soundness argument is in `Unsafe.swift`). It is part
// of the runtime's stable ABI on every platform Swift ships (the Objective-C bridge uses it).

#include <stdbool.h>

extern bool swift_isDeallocating(void *_Nonnull object);

/// Whether `object`'s deinitialisation has begun (its strong count reached zero).
static inline bool c_di_is_deinitialising(void *_Nonnull object) {
    return swift_isDeallocating(object);
}

#endif

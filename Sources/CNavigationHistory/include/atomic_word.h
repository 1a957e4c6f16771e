#ifndef NAVIGATION_HISTORY_ATOMIC_WORD_H
#define NAVIGATION_HISTORY_ATOMIC_WORD_H

/// Reads the word at `address` as one thread writes it for another: atomically, seeing what that
/// thread wrote before its release store.
static inline long navigation_history_load_acquire(const long *address) { return __atomic_load_n(address, __ATOMIC_ACQUIRE); }

/// Writes `value` to the word at `address` atomically, after what this thread wrote before.
static inline void navigation_history_store_release(long *address, long value) { __atomic_store_n(address, value, __ATOMIC_RELEASE); }

#endif

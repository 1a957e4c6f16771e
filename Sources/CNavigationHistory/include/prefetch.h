#ifndef NAVIGATION_HISTORY_PREFETCH_H
#define NAVIGATION_HISTORY_PREFETCH_H

/// Asks the CPU to fetch the cache line at `address` ahead of its use. Never faults, even where
/// nothing is mapped.
static inline void navigation_history_prefetch(const void *address) { __builtin_prefetch(address); }

#endif

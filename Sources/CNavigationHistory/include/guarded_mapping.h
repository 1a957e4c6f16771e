#ifndef NAVIGATION_HISTORY_GUARDED_MAPPING_H
#define NAVIGATION_HISTORY_GUARDED_MAPPING_H

#include <stddef.h>
#include <stdint.h>

/// The size of a memory page: mapping offsets are multiples of it.
size_t navigation_history_page_size(void);

/// Maps `length` bytes of the open file `fd` from `offset` (a multiple of the page size),
/// read-only, under a guard: when the file shrinks while mapped, a read of a page past its new end
/// sees zeros instead of raising SIGBUS, and the guard remembers it. The guard is a SIGBUS handler
/// installed on the first call; a fault outside every guarded mapping goes on to the handler
/// installed before it, or to the default action.
///
/// Returns the mapping's address and sets `*slot`, or returns NULL with `errno` set when the file
/// cannot be mapped (a pipe, say) or the guard cannot be installed or has no free slot (EAGAIN).
const void *navigation_history_map_guarded(int fd, int64_t offset, size_t length, int *slot);

/// Stops guarding a mapping made by `navigation_history_map_guarded`, which nothing may read after.
/// Returns 1 when the file shrank under it and a read past its end saw zeros, else 0.
int navigation_history_unguard(int slot);

/// Unmaps a mapping no longer guarded (`navigation_history_unguard`) and frees its slot; on any
/// thread.
void navigation_history_unmap_unguarded(const void *address, size_t length, int slot);

#endif

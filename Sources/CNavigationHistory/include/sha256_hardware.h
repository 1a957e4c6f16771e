#ifndef NAVIGATION_HISTORY_SHA256_HARDWARE_H
#define NAVIGATION_HISTORY_SHA256_HARDWARE_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has the SHA-256 instructions (the SHA extensions on x86-64). Checked once;
/// when it is 0, callers use the portable Swift version.
int navigation_history_sha256_hardware_available(void);

/// Folds `blocks` 64-byte blocks at `bytes` into the eight state words `state` (a, b, ... h)
/// with the CPU's instructions. Call only when `navigation_history_sha256_hardware_available()`
/// returned 1.
void navigation_history_sha256_hardware_blocks(uint32_t state[8], const void *bytes, size_t blocks);

#endif

#ifndef NAVIGATION_HISTORY_CRC32C_HARDWARE_H
#define NAVIGATION_HISTORY_CRC32C_HARDWARE_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has a CRC-32C instruction (SSE 4.2 on x86-64, the CRC extension on ARMv8).
/// Checked once; when it is 0, callers use the portable table version.
int navigation_history_crc32c_hardware_available(void);

/// Continues a CRC-32C over `count` bytes with the CPU's instruction. `crc` is the running value
/// before the final inversion (start with 0xFFFFFFFF, invert the result). Call only when
/// `navigation_history_crc32c_hardware_available()` returned 1.
uint32_t navigation_history_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count);

#endif

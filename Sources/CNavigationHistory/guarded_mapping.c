// Read-only file mappings that survive the file shrinking under them. A read of a mapped page
// past a file's end raises SIGBUS, which kills the process; a log may be cut by `navlog repair` or
// a store's recovery while another process reads it. The guard's SIGBUS handler maps a page of
// zeros over the faulting page of a guarded mapping and marks the mapping, and the reader reports
// an I/O error instead. Everything the handler touches is async-signal-safe: atomics, mmap.
#include "guarded_mapping.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLOTS 256

// A slot is taken (`taken`), then given its range (`end`, then `start`, so that a handler that
// sees a start sees its end), and given up in the reverse order.
static atomic_int taken[SLOTS];
static _Atomic(uintptr_t) starts[SLOTS];
static _Atomic(uintptr_t) ends[SLOTS];
static atomic_int shrank[SLOTS];

static size_t page_size;
static struct sigaction previous;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int installed;

size_t navigation_history_page_size(void) {
    long size = sysconf(_SC_PAGESIZE);
    return size > 0 ? (size_t)size : 4096;
}

static void on_sigbus(int signal_number, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t start = atomic_load(&starts[i]);
        if (start == 0 || address < start || address >= atomic_load(&ends[i])) continue;
        void *page = (void *)(address & ~(uintptr_t)(page_size - 1));
        if (mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            atomic_store(&shrank[i], 1);
            return;
        }
        break;
    }
    // Not a guarded page: as if the guard were not there.
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(signal_number, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal_number);
    } else {
        // Returning runs the faulting instruction again, which now takes the default action.
        signal(signal_number, SIG_DFL);
    }
}

static void install(void) {
    page_size = navigation_history_page_size();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    installed = sigaction(SIGBUS, &action, &previous) == 0;
}

const void *navigation_history_map_guarded(int fd, int64_t offset, size_t length, int *slot) {
    pthread_once(&once, install);
    if (!installed) { errno = ENOTSUP; return NULL; }
    int free_slot = -1;
    for (int i = 0; i < SLOTS && free_slot < 0; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&taken[i], &expected, 1)) free_slot = i;
    }
    if (free_slot < 0) { errno = EAGAIN; return NULL; }
    void *address = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, (off_t)offset);
    if (address == MAP_FAILED) {
        int code = errno;
        atomic_store(&taken[free_slot], 0);
        errno = code;
        return NULL;
    }
    atomic_store(&shrank[free_slot], 0);
    atomic_store(&ends[free_slot], (uintptr_t)address + length);
    atomic_store(&starts[free_slot], (uintptr_t)address);
    *slot = free_slot;
    return address;
}

int navigation_history_unguard(int slot) {
    atomic_store(&starts[slot], 0);
    return atomic_load(&shrank[slot]);
}

void navigation_history_unmap_unguarded(const void *address, size_t length, int slot) {
    munmap((void *)address, length);
    atomic_store(&taken[slot], 0);
}

// The never-written segments of the loaded objects, mapped page by page (madvise over dl_iterate_phdr).
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CLifebusSystem.h"

/// What `lifebus_release_read_only_pages` has covered so far.
struct release_tally {
    long bytes;
    long refusals;
};

/// One loaded object: each PT_LOAD segment without PF_W, its whole pages only (a page it shares with a writable
/// segment is not touched, so no written page is ever dropped).
static int release_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct release_tally *tally = data;
    if (strstr(info->dlpi_name, "linux-vdso") != NULL) {
        return 0;  // the kernel's own
    }
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W) != 0) {
            continue;
        }
        uintptr_t first = info->dlpi_addr + segment->p_vaddr;
        uintptr_t start = (first + page - 1) & ~(page - 1);
        uintptr_t end = (first + segment->p_memsz) & ~(page - 1);
        if (end <= start) {
            continue;
        }
        if (madvise((void *)start, end - start, MADV_RANDOM) != 0 ||
            madvise((void *)start, end - start, MADV_DONTNEED) != 0) {
            tally->refusals += 1;
            continue;
        }
        tally->bytes += (long)(end - start);
    }
    return 0;
}

long lifebus_release_read_only_pages(void) {
    struct release_tally tally = {0, 0};
    dl_iterate_phdr(release_object, &tally);
    return tally.refusals > 0 ? -1 : tally.bytes;
}

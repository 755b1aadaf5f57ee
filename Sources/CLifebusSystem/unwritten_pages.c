// The never-written pages of the loaded objects, dropped from the resident set (madvise over dl_iterate_phdr).
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CLifebusSystem.h"

/// What `lifebus_release_unwritten_pages` has covered so far, and the pagemap it reads writable segments through
/// (-1: not read, their pages are kept).
struct release_tally {
    long bytes;
    long refusals;
    int pagemap;
    uintptr_t page;
};

/// `[start, end)` dropped (MADV_DONTNEED), marked MADV_RANDOM first when `random` (a whole segment: no read-ahead
/// when it comes back; on a part of one it would split the mapping).
static void release_range(struct release_tally *tally, uintptr_t start, uintptr_t end, int random) {
    if ((random && madvise((void *)start, end - start, MADV_RANDOM) != 0) ||
        madvise((void *)start, end - start, MADV_DONTNEED) != 0) {
        tally->refusals += 1;
        return;
    }
    tally->bytes += (long)(end - start);
}

/// The pages of a writable segment still mapped from the file: read there and never written (a written page of a
/// private mapping is the process's own copy, an anonymous page, and is kept, as is every page not resident).
/// Dropping one loses nothing: touched again, it is read from the same file. Bit 63 of a pagemap entry: present;
/// bit 61: a file page.
static void release_file_pages(struct release_tally *tally, uintptr_t start, uintptr_t end) {
    enum { batch = 512 };
    uint64_t entries[batch];
    uintptr_t run = 0;  // the first page of the current run of file pages, 0 for none
    for (uintptr_t address = start; address < end;) {
        size_t count = (end - address) / tally->page;
        if (count > batch) count = batch;
        off_t offset = (off_t)(address / tally->page * sizeof(uint64_t));
        ssize_t wanted = (ssize_t)(count * sizeof(uint64_t));
        if (pread(tally->pagemap, entries, (size_t)wanted, offset) != wanted) {
            tally->refusals += 1;
            return;
        }
        for (size_t index = 0; index < count; index++, address += tally->page) {
            int file_page = (entries[index] >> 63 & 1) && (entries[index] >> 61 & 1);
            if (file_page && run == 0) run = address;
            if (!file_page && run != 0) {
                release_range(tally, run, address, 0);
                run = 0;
            }
        }
    }
    if (run != 0) release_range(tally, run, end, 0);
}

/// One loaded object: each PT_LOAD segment's whole pages only (a page a segment shares with another is not touched).
/// A never-written segment's pages all go; a writable one's, those `release_file_pages` finds.
static int release_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct release_tally *tally = data;
    if (strstr(info->dlpi_name, "linux-vdso") != NULL) {
        return 0;  // the kernel's own
    }
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
        if (segment->p_type != PT_LOAD) {
            continue;
        }
        uintptr_t first = info->dlpi_addr + segment->p_vaddr;
        uintptr_t start = (first + tally->page - 1) & ~(tally->page - 1);
        uintptr_t end = (first + segment->p_memsz) & ~(tally->page - 1);
        if (end <= start) {
            continue;
        }
        if ((segment->p_flags & PF_W) == 0) {
            release_range(tally, start, end, 1);
        } else if (tally->pagemap >= 0) {
            release_file_pages(tally, start, end);
        }
    }
    return 0;
}

/// Whether the process runs one thread (the `Threads:` line of /proc/self/status); `0` when it cannot tell.
static int single_threaded(void) {
    FILE *status = fopen("/proc/self/status", "re");
    if (status == NULL) return 0;
    char line[256];
    long threads = 0;
    while (fgets(line, sizeof line, status) != NULL) {
        if (sscanf(line, "Threads: %ld", &threads) == 1) break;
    }
    fclose(status);
    return threads == 1;
}

long lifebus_release_unwritten_pages(void) {
    struct release_tally tally = {0, 0, -1, (uintptr_t)sysconf(_SC_PAGESIZE)};
    // A writable page is judged then dropped: no other thread may write it in between.
    if (single_threaded()) tally.pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    dl_iterate_phdr(release_object, &tally);
    if (tally.pagemap >= 0) close(tally.pagemap);
    return tally.refusals > 0 ? -1 : tally.bytes;
}

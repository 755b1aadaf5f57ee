import CLifebusSystem

/// The daemon's resident code after start-up: only what runs.
///
/// Every fault on a page of code maps the 16 pages around it that the page cache holds (the kernel's fault-around),
/// and start-up runs code that never runs again (argument parsing, journal recovery, logging set-up). Once the broker
/// listens, the never-written segments of the executable and its libraries are marked MADV_RANDOM (a fault maps one
/// page) and dropped from the resident set (MADV_DONTNEED: clean file pages, re-read from the page cache when
/// touched; a written page is never covered). The idle broker then holds about half the pages; the first use of
/// each code path costs a minor fault per page, once.
enum StartUpPages {
    /// Releases them; the bytes covered, `nil` if madvise refused some range (what it did cover stays covered).
    static func release() -> Int? {
        let bytes = lifebus_release_read_only_pages()
        return bytes < 0 ? nil : bytes
    }
}

import CLifebusSystem

/// The daemon's resident pages after start-up: only what runs.
///
/// Start-up runs code, and reads data, that never runs again (argument parsing, journal recovery, logging set-up).
/// Once the broker listens, the pages of the executable and its libraries that the process never wrote are dropped
/// from the resident set (MADV_DONTNEED; MADV_RANDOM first, no read-ahead): every page of the never-written segments,
/// and, while the daemon runs one thread, the pages of the writable segments still mapped from the file (the Swift
/// metadata start-up read). They are clean file pages, read again from the page cache when touched; a page the
/// process wrote is its own copy and is never covered. What comes back is the pages the running code touches, each
/// with the cached pages the kernel's fault-around maps beside it (up to 64 KiB, which MADV_RANDOM does not turn off
/// on 6.x kernels): hence the running code placed together (`scripts/lifebusd.order`).
enum StartUpPages {
    /// Releases them; the bytes covered, `nil` if madvise refused some range (what it did cover stays covered).
    static func release() -> Int? {
        let bytes = lifebus_release_unwritten_pages()
        return bytes < 0 ? nil : bytes
    }
}

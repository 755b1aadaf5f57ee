import Glibc
import LifebusLifecycle

/// Reads newline-terminated lines from a file descriptor, waiting with `poll` up to a deadline.
///
/// Owns the descriptor and the bytes read past the last line. Used by one test at a time.
final class LineReader {
    private(set) var descriptor: Int32
    private var buffer: [UInt8] = []
    private(set) var reachedEnd = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        closeDescriptor()
    }

    /// Closes the descriptor now; reads after this see end of stream.
    func closeDescriptor() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
        reachedEnd = true
    }

    /// The next line (without its newline), or `nil` at end of stream or when `timeout` passes first.
    func readLine(timeout: Duration = .seconds(20)) -> String? {
        readLineBytes(timeout: timeout).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line as bytes.
    func readLineBytes(timeout: Duration = .seconds(20)) -> [UInt8]? {
        let deadline = Deadline(after: timeout)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            guard !reachedEnd, fill(until: deadline) else { return nil }
        }
    }

    /// Reads until end of stream (or the deadline) and returns everything not yet returned as lines.
    func readAll(timeout: Duration = .seconds(20)) -> String {
        let deadline = Deadline(after: timeout)
        while !reachedEnd, fill(until: deadline) {}
        let rest = String(decoding: buffer, as: UTF8.self)
        buffer.removeAll()
        return rest
    }

    /// Reads once when data arrives before the deadline; false on timeout.
    private func fill(until deadline: Deadline) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, deadline.remainingMilliseconds)
        guard ready > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(descriptor, &chunk, chunk.count)
        if count <= 0 {
            reachedEnd = true
        } else {
            buffer.append(contentsOf: chunk[0..<count])
        }
        return true
    }
}

/// A point on the monotonic clock, for waits that give up.
struct Deadline {
    let nanoseconds: UInt64

    init(after duration: Duration) {
        nanoseconds = Self.now() &+ duration.clampedNanoseconds
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    var hasPassed: Bool { Self.now() >= nanoseconds }

    var remainingMilliseconds: Int32 {
        let now = Self.now()
        guard nanoseconds > now else { return 0 }
        return Int32(min(UInt64(Int32.max), (nanoseconds - now + 999_999) / 1_000_000))
    }
}

import Glibc

/// A line longer than the framer's limit arrived (the limit counts bytes without the "\n").
public struct LineTooLong: Error, Sendable, Equatable {
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }
}

/// Splits a byte stream into "\n"-terminated lines. A pure value type: owns only the bytes of one partial line
/// (never more than `maxLineLength`), knows nothing of libuv, and is bound to no thread.
///
/// Invariants: any split of the same stream into `feed` calls yields the same lines; `bufferedByteCount` never
/// exceeds `maxLineLength`. A line that ends within the buffer passed to `feed` is handed out without copying (a
/// pointer into the input, valid only during the callback); only a partial tail is copied. After `LineTooLong`
/// the partial line is dropped and the framer starts afresh.
public struct LineFramer {
    /// The longest accepted line in bytes, without its "\n". May change at any time; it applies to the next `feed`.
    public var maxLineLength: Int
    private var partial: [UInt8] = []

    /// A partial buffer grown past this by a long line is released once that line is complete.
    private static let retainedCapacity = 16 * 1024

    public init(maxLineLength: Int) {
        precondition(maxLineLength >= 0, "maxLineLength must not be negative")
        self.maxLineLength = maxLineLength
    }

    /// Bytes of an unterminated line held since the last "\n".
    public var bufferedByteCount: Int { partial.count }

    /// Calls `onLine` for each complete line (without the "\n"), in order, and keeps an unterminated tail.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer,
        _ onLine: (UnsafeRawBufferPointer) -> Void
    ) throws(LineTooLong) {
        _ = try feedUntilStopped(bytes) { line in
            onLine(line)
            return true
        }
    }

    /// Like `feed(_:_:)`, but stops right after a line for which `onLine` returns false, leaving the rest of
    /// `bytes` unread. Returns how many bytes of `bytes` were consumed (all of them unless stopped).
    public mutating func feedUntilStopped(
        _ bytes: UnsafeRawBufferPointer,
        _ onLine: (UnsafeRawBufferPointer) -> Bool
    ) throws(LineTooLong) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let count = bytes.count
        var start = 0
        while start < count, let newline = memchr(base + start, 0x0A, count - start) {
            let end = base.distance(to: UnsafeRawPointer(newline))
            let keepGoing: Bool
            if partial.isEmpty {
                guard end - start <= maxLineLength else { throw tooLong() }
                keepGoing = onLine(UnsafeRawBufferPointer(start: base + start, count: end - start))
            } else {
                guard partial.count + (end - start) <= maxLineLength else { throw tooLong() }
                partial.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: end - start))
                keepGoing = partial.withUnsafeBytes(onLine)
                if partial.capacity > Self.retainedCapacity {
                    partial = []
                } else {
                    partial.removeAll(keepingCapacity: true)
                }
            }
            start = end + 1
            if !keepGoing { return start }
        }
        let tail = count - start
        if tail > 0 {
            guard partial.count + tail <= maxLineLength else { throw tooLong() }
            partial.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: tail))
        }
        return count
    }

    /// Drops any partial line.
    public mutating func reset() {
        partial = []
    }

    private mutating func tooLong() -> LineTooLong {
        partial = []
        return LineTooLong(limit: maxLineLength)
    }
}

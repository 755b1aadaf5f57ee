/// Word-at-a-time searches for the bytes that end a plain run inside a JSON string, for the parser and the
/// writer (SWAR bit tricks, 8 bytes per step; each test is exact about whether a word holds such a byte).
///
/// Stateless. Bounds: every read stays inside `bytes[start..<end]`.
@_spi(RawJSON) public enum ByteScan {
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    @inlinable @inline(__always)
    static func hasByte(_ word: UInt64, equalTo byte: UInt8) -> Bool {
        let diff = word ^ (ones &* UInt64(byte))
        return (diff &- ones) & ~diff & highBits != 0
    }

    /// True when some byte of `word` is below `limit` (`limit` <= 128).
    @inlinable @inline(__always)
    static func hasByte(_ word: UInt64, below limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    /// The index of the first byte the parser must handle itself (`"`, `\`, below 0x20, 0x80 and above), or `end`.
    @inlinable @inline(__always)
    public static func firstParserSpecial(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var index = start
        while end - index >= 8 {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & highBits != 0 || hasByte(word, below: 0x20) || hasByte(word, equalTo: 0x22)
                || hasByte(word, equalTo: 0x5C)
            {
                break
            }
            index += 8
        }
        while index < end {
            let byte = bytes[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { return index }
            index += 1
        }
        return end
    }

    /// True when some byte of `word` must be escaped by the writer (`"`, `\`, below 0x20, 0x7F).
    @inline(__always)
    static func isWriterSpecial(_ word: UInt64) -> Bool {
        // The four tests' marks combined before one branch (each is exact about whether some byte matches).
        (marks(word, below: 0x20) | marks(word, equalTo: 0x22) | marks(word, equalTo: 0x5C)
            | marks(word, equalTo: 0x7F)) & highBits != 0
    }

    /// Nonzero in some byte's high bit exactly when some byte of `word` equals `byte` (other bits are noise).
    @inline(__always)
    private static func marks(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let diff = word ^ (ones &* UInt64(byte))
        return (diff &- ones) & ~diff
    }

    /// Nonzero in some byte's high bit exactly when some byte of `word` is below `limit` (`limit` <= 128).
    @inline(__always)
    private static func marks(_ word: UInt64, below limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word
    }

    /// True when the writer must escape `byte`.
    @inline(__always)
    static func isWriterSpecial(_ byte: UInt8) -> Bool {
        byte == 0x22 || byte == 0x5C || byte < 0x20 || byte == 0x7F
    }

    /// Whether `left` and `right` hold the same bytes: eight at a time, then one at a time.
    public static func same(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        var offset = 0
        while offset + 8 <= left.count {
            guard left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < left.count {
            guard left[offset] == right[offset] else { return false }
            offset += 1
        }
        return true
    }
}

/// Word-at-a-time searches for the bytes that end a plain run inside a JSON string, for the parser and the
/// writer (SWAR bit tricks, 8 bytes per step; each test is exact about whether a word holds such a byte).
///
/// Stateless. Bounds: every read stays inside `bytes[start..<end]`.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    private static func hasByte(_ word: UInt64, equalTo byte: UInt8) -> Bool {
        let diff = word ^ (ones &* UInt64(byte))
        return (diff &- ones) & ~diff & highBits != 0
    }

    /// True when some byte of `word` is below `limit` (`limit` <= 128).
    @inline(__always)
    private static func hasByte(_ word: UInt64, below limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    /// The index of the first byte the parser must handle itself (`"`, `\`, below 0x20, 0x80 and above), or `end`.
    @inline(__always)
    static func firstParserSpecial(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
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

    /// The index of the first byte the writer must escape (`"`, `\`, below 0x20, 0x7F), or `end`.
    @inline(__always)
    static func firstWriterSpecial(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var index = start
        while end - index >= 8 {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if isWriterSpecial(word) { break }
            index += 8
        }
        // The loop ran out of whole words on a clean run of eight bytes or more: the last word, overlapping what
        // the loop saw, settles the tail at once.
        if index < end, end - index < 8, end - start >= 8,
            !isWriterSpecial(bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
        {
            return end
        }
        while index < end {
            let byte = bytes[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte == 0x7F { return index }
            index += 1
        }
        return end
    }

    @inline(__always)
    private static func isWriterSpecial(_ word: UInt64) -> Bool {
        hasByte(word, below: 0x20) || hasByte(word, equalTo: 0x22) || hasByte(word, equalTo: 0x5C)
            || hasByte(word, equalTo: 0x7F)
    }
}

/// Strings through the cursor, escaped: `"`, `\` and every control byte.
extension JSONCursor {
    /// Writes `"..."`, escaping `"`, `\` and every control byte; other bytes (valid UTF-8) are copied as they are,
    /// in runs. Needs `JSONCursor.stringBound(text)` bytes at most.
    public mutating func string(_ text: String) {
        byte(UInt8(ascii: "\""))
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            escaped(UnsafeRawBufferPointer(utf8))
        }
        if written == nil {
            var contiguous = text
            contiguous.withUTF8 { utf8 in escaped(UnsafeRawBufferPointer(utf8)) }
        }
        byte(UInt8(ascii: "\""))
    }

    /// Copies `utf8` escaped: a clean string of four to seven bytes as two overlapping half words; otherwise eight
    /// bytes at a time while a word holds nothing to escape (scanned and copied in one step, no call), byte by
    /// byte around the bytes that need escaping. A clean tail shorter than a word is settled by the string's last
    /// word, stored over the copy it overlaps (the same bytes, when no escape was written among them).
    private mutating func escaped(_ utf8: UnsafeRawBufferPointer) {
        guard let source = utf8.baseAddress else { return }
        let count = utf8.count
        if count >= 4, count < 8 {
            // A short string (a key, a name): its first and last four bytes, tested as one word, cover it.
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            if !ByteScan.isWriterSpecial(UInt64(first) | UInt64(last) << 32) {
                let target = UnsafeMutableRawPointer(claim(count))
                target.storeBytes(of: first, as: UInt32.self)
                target.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
                return
            }
        }
        var index = 0
        var verbatimFrom = 0  // source bytes from here on were copied as they are
        while true {
            while count &- index >= 8 {
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                guard !ByteScan.isWriterSpecial(word) else { break }
                UnsafeMutableRawPointer(claim(8)).storeBytes(of: word, as: UInt64.self)
                index &+= 8
            }
            guard index < count else { return }
            let rest = count &- index
            if rest < 8, count &- 8 >= verbatimFrom {
                let word = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                if !ByteScan.isWriterSpecial(word) {
                    UnsafeMutableRawPointer(claim(rest) + rest - 8).storeBytes(of: word, as: UInt64.self)
                    return
                }
            }
            let next = source.load(fromByteOffset: index, as: UInt8.self)
            if ByteScan.isWriterSpecial(next) {
                escape(next)
                verbatimFrom = index &+ 1
            } else {
                byte(next)
            }
            index &+= 1
        }
    }

    private mutating func escape(_ byte: UInt8) {
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""): short = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): short = UInt8(ascii: "\\")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            let hex: StaticString = "0123456789abcdef"
            let room = claim(6)
            let prefix: StaticString = "\\u00"
            room.initialize(from: prefix.utf8Start, count: 4)
            room[4] = hex.utf8Start[Int(byte >> 4)]
            room[5] = hex.utf8Start[Int(byte & 0x0F)]
            return
        }
        let room = claim(2)
        room[0] = UInt8(ascii: "\\")
        room[1] = short
    }
}

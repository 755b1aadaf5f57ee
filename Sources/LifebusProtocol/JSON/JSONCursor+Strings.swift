/// Strings through the cursor, escaped: `"`, `\` and every control byte.
extension JSONCursor {
    /// Writes `"..."`, escaping `"`, `\` and every control byte; other bytes (valid UTF-8) are copied as they are,
    /// in runs. Needs `JSONCursor.stringBound(text)` bytes at most.
    mutating func string(_ text: String) {
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

    private mutating func escaped(_ utf8: UnsafeRawBufferPointer) {
        var runStart = 0
        while true {
            let special = ByteScan.firstWriterSpecial(in: utf8, from: runStart, to: utf8.count)
            if runStart < special {
                bytes(UnsafeRawBufferPointer(rebasing: utf8[runStart..<special]))
            }
            guard special < utf8.count else { return }
            escape(utf8[special])
            runStart = special + 1
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

/// The cursor of one parse: the input bytes, the read position and a scratch buffer for strings that need
/// unescaping or UTF-8 validation.
///
/// Lives on the stack of one `JSONParser.parse` call (never escapes it; the bytes it points at outlive it).
/// Invariant: `index <= count`; every read checks `index < count` first.
@_spi(RawJSON) public struct JSONScanner {
    public let bytes: UnsafeRawBufferPointer
    public let count: Int
    public var index = 0
    /// Decoded bytes of the string being parsed on the slow path; reused across strings.
    @usableFromInline var scratch: [UInt8] = []

    @inlinable public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.count = bytes.count
    }

    func fail(_ kind: JSONParseError.Kind) -> JSONParseError {
        JSONParseError(kind, at: index)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}

// MARK: - Strings

extension JSONScanner {
    /// Parses a string body; `index` is just past the opening quote and ends just past the closing one.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index = ByteScan.firstParserSpecial(in: bytes, from: index, to: count)
        if index < count, bytes[index] == UInt8(ascii: "\"") {
            let string = Self.makeASCIIString(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            index += 1
            return string
        }
        return try parseStringSlowly(from: start)
    }

    /// A string of plain ASCII bytes; the envelope's member names come back as constants without being built.
    private static func makeASCIIString(_ ascii: UnsafeRawBufferPointer) -> String {
        switch ascii.count {
        case 0: return ""
        case 2: if matches(ascii, "id") { return "id" }
        case 3: if matches(ascii, "2.0") { return "2.0" }
        case 5: if matches(ascii, "error") { return "error" }
        case 6:
            if matches(ascii, "method") { return "method" }
            if matches(ascii, "params") { return "params" }
            if matches(ascii, "result") { return "result" }
        case 7: if matches(ascii, "jsonrpc") { return "jsonrpc" }
        default: break
        }
        return String(unsafeUninitializedCapacity: ascii.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: ascii)
            return ascii.count
        }
    }

    @inline(__always)
    private static func matches(_ ascii: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        let expected = literal.utf8Start
        for offset in 0..<ascii.count where ascii[offset] != expected[offset] {
            return false
        }
        return true
    }

    /// The general path: escapes and non-ASCII bytes, decoded into `scratch`.
    private mutating func parseStringSlowly(from start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[start..<index])
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw fail(.controlCharacterInString)
            case 0x80...:
                try copyUTF8Sequence(lead: byte)
            default:
                let runStart = index
                index = ByteScan.firstParserSpecial(in: bytes, from: index + 1, to: count)
                scratch.append(contentsOf: bytes[runStart..<index])
            }
        }
        throw fail(.unexpectedEnd)
    }

    /// Validates one multi-byte UTF-8 sequence (Unicode Table 3-7: no overlong forms, no surrogates, nothing
    /// beyond U+10FFFF) and copies it to `scratch`.
    private mutating func copyUTF8Sequence(lead: UInt8) throws(JSONParseError) {
        var length = 2
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw fail(.invalidUTF8)
        }
        guard count - index >= length else { throw fail(.invalidUTF8) }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { throw JSONParseError(.invalidUTF8, at: index + 1) }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            throw JSONParseError(.invalidUTF8, at: index + offset)
        }
        scratch.append(contentsOf: bytes[index..<(index + length)])
        index += length
    }

    /// Decodes one backslash escape at `index` into `scratch`.
    private mutating func parseEscape() throws(JSONParseError) {
        guard index + 1 < count else { throw JSONParseError(.unexpectedEnd, at: count) }
        let code = bytes[index + 1]
        let escapeStart = index
        index += 2
        switch code {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            var scalar = unit
            switch unit {
            case 0xD800...0xDBFF:
                guard count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw JSONParseError(.invalidSurrogate, at: escapeStart) }
                index += 2
                let second = try readHex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw JSONParseError(.invalidSurrogate, at: escapeStart)
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (second - 0xDC00)
            case 0xDC00...0xDFFF:
                throw JSONParseError(.invalidSurrogate, at: escapeStart)
            default:
                break
            }
            appendUTF8(scalar)
        default:
            throw JSONParseError(.invalidEscape, at: escapeStart)
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard count - index >= 4 else { throw JSONParseError(.unexpectedEnd, at: count) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail(.invalidEscape)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

/// Compact JSON output.
///
/// The text is one line: no whitespace between tokens and never a raw control character (every byte below
/// 0x20 and DEL is escaped), so it can be framed by newlines. Object members are written in their stored order.
/// Doubles are written with Swift's shortest round-tripping form (`1.0`, `1e+20`, `5e-324`), which always has a
/// fraction or an exponent, so they parse back as `.double`; a non-finite double is written as `null`.
extension JSONValue {
    /// Appends the compact JSON text of this value to `buffer`.
    public func write(to buffer: inout [UInt8]) {
        switch self {
        case .null:
            JSONWriter.appendASCII("null", to: &buffer)
        case .bool(let value):
            JSONWriter.appendASCII(value ? "true" : "false", to: &buffer)
        case .integer(let value):
            JSONWriter.writeInteger(value, to: &buffer)
        case .double(let value):
            JSONWriter.writeDouble(value, to: &buffer)
        case .string(let value):
            JSONWriter.writeString(value, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                element.write(to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            object.write(to: &buffer)
        }
    }

    /// The compact JSON text as bytes (UTF-8).
    public var jsonBytes: [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        write(to: &buffer)
        return buffer
    }

    /// The compact JSON text.
    public var jsonText: String {
        String(decoding: jsonBytes, as: UTF8.self)
    }
}

extension JSONObject {
    /// Appends `{"key":value,...}` in member order to `buffer`.
    public func write(to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        var first = true
        for member in members {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(member.key, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            member.value.write(to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }
}

/// The scalar writers shared by `JSONValue.write(to:)` and `RPCCodec`'s envelope encoder.
enum JSONWriter {
    @inline(__always)
    static func appendASCII(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    static func writeInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        if magnitude < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        appendDigits(magnitude, count: 1, to: &buffer)
    }

    /// Appends the decimal digits of `value`, zero-padded on the left to at least `count` (at most 20) digits.
    static func appendDigits(_ value: UInt64, count: Int, to buffer: inout [UInt8]) {
        // Last digit first into a stack buffer (20 hold any UInt64), then appended in one copy.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var start = 20
            while rest > 0 || 20 - start < count {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    static func writeDouble(_ value: Double, to buffer: inout [UInt8]) {
        guard value.isFinite else {
            appendASCII("null", to: &buffer)
            return
        }
        if writeShortDecimal(value, to: &buffer) { return }
        buffer.append(contentsOf: value.description.utf8)
    }

    /// Writes `"..."`, escaping `"`, `\` and every control byte; other bytes (valid UTF-8) are copied as they are.
    static func writeString(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            writeEscaped(UnsafeRawBufferPointer(utf8), to: &buffer)
        }
        if written == nil {
            var contiguous = string
            contiguous.withUTF8 { utf8 in writeEscaped(UnsafeRawBufferPointer(utf8), to: &buffer) }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func writeEscaped(_ utf8: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        var runStart = 0
        while true {
            let special = ByteScan.firstWriterSpecial(in: utf8, from: runStart, to: utf8.count)
            if runStart < special {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runStart..<special]))
            }
            guard special < utf8.count else { return }
            appendEscape(for: utf8[special], to: &buffer)
            runStart = special + 1
        }
    }

    private static func appendEscape(for byte: UInt8, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        default:
            let hex: StaticString = "0123456789abcdef"
            buffer.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            buffer.append(hex.utf8Start[Int(byte >> 4)])
            buffer.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}

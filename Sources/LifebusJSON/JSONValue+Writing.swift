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
    /// Appends `{"key":value,...}` in member order to `buffer`: a member with a scalar value (the most) written
    /// with its key and separator through one cursor.
    public func write(to buffer: inout [UInt8]) {
        guard !members.isEmpty else { return JSONWriter.appendASCII("{}", to: &buffer) }
        var first = true
        for member in members {
            let opening = first ? UInt8(ascii: "{") : UInt8(ascii: ",")
            first = false
            let keyBound = JSONCursor.stringBound(member.key) + 2
            if let valueBound = member.value.scalarBound {
                JSONWriter.append(to: &buffer, atMost: keyBound + valueBound) { cursor in
                    cursor.byte(opening)
                    cursor.string(member.key)
                    cursor.byte(UInt8(ascii: ":"))
                    member.value.writeScalar(to: &cursor)
                }
            } else {
                JSONWriter.append(to: &buffer, atMost: keyBound) { cursor in
                    cursor.byte(opening)
                    cursor.string(member.key)
                    cursor.byte(UInt8(ascii: ":"))
                }
                member.value.write(to: &buffer)
            }
        }
        buffer.append(UInt8(ascii: "}"))
    }
}

extension JSONValue {
    /// The most bytes `writeScalar` writes for this value; `nil` for an array or an object.
    @inline(__always)
    var scalarBound: Int? {
        switch self {
        case .null, .bool, .integer, .double: JSONCursor.numberBound
        case .string(let value): JSONCursor.stringBound(value)
        case .array, .object: nil
        }
    }

    /// Writes a scalar value (`scalarBound` bytes at most); an array or an object is a caller's bug and traps.
    func writeScalar(to cursor: inout JSONCursor) {
        switch self {
        case .null: cursor.null()
        case .bool(let value): value ? cursor.ascii("true") : cursor.ascii("false")
        case .integer(let value): cursor.integer(value)
        case .double(let value): cursor.double(value)
        case .string(let value): cursor.string(value)
        case .array, .object: preconditionFailure("JSONValue.writeScalar: not a scalar")
        }
    }
}

/// The array-facing writers: `append(to:atMost:_:)` lends a `JSONCursor` over reserved room, and the scalar
/// writers shared by `JSONValue.write(to:)` and `RPCCodec`'s envelope encoder each write through one.
@_spi(RawJSON) public enum JSONWriter {
    /// Reserves `bound` bytes after the end of `buffer` (growing it geometrically, as `append` does), lets `write`
    /// fill some of them through a cursor, and makes what it wrote part of `buffer`. `write` traps if it needs more
    /// than `bound` bytes.
    @inlinable @inline(__always)
    public static func append(to buffer: inout [UInt8], atMost bound: Int, _ write: (inout JSONCursor) -> Void) {
        buffer.append(addingCapacity: bound) { span in
            span.withUnsafeMutableBufferPointer { room, initialized in
                guard let base = room.baseAddress else { return }
                var cursor = JSONCursor(start: base + initialized, end: base + room.count)
                write(&cursor)
                initialized = cursor.position - base
            }
        }
    }

    @inlinable @inline(__always)
    public static func appendASCII(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public static func writeInteger(_ value: Int64, to buffer: inout [UInt8]) {
        append(to: &buffer, atMost: JSONCursor.numberBound) { $0.integer(value) }
    }

    public static func writeDouble(_ value: Double, to buffer: inout [UInt8]) {
        append(to: &buffer, atMost: JSONCursor.numberBound) { $0.double(value) }
    }

    /// Writes `"..."`, escaping `"`, `\` and every control byte; other bytes (valid UTF-8) are copied as they are.
    public static func writeString(_ string: String, to buffer: inout [UInt8]) {
        append(to: &buffer, atMost: JSONCursor.stringBound(string)) { $0.string(string) }
    }
}

/// Parses JSON text (RFC 8259) into a `JSONValue`.
///
/// Stateless entry points (a namespace; callable from any thread). The parser is iterative: nesting lives on an
/// explicit stack capped at `maxDepth`, so hostile input cannot exhaust the call stack. It accepts exactly
/// RFC 8259 texts with these decisions (see `Protocol/README.md`):
/// - leading and trailing JSON whitespace is allowed; anything else after the value is an error; no BOM;
/// - strings must be well-formed UTF-8 (no overlong forms, no encoded surrogates, nothing beyond U+10FFFF) and
///   `\u` escapes must form valid UTF-16 (a lone or misordered surrogate is an error);
/// - a number without fraction or exponent that fits `Int64` becomes `.integer`; any other number becomes
///   `.double` when finite (underflow to zero is fine) and is an error when it overflows to infinity;
/// - arrays and objects nested deeper than `maxDepth` are an error;
/// - repeated object keys are kept (lookup answers the last one; see `JSONObject`).
public enum JSONParser {
    /// The nesting depth the protocol allows.
    public static let defaultMaxDepth = 32

    public static func parse(
        _ bytes: UnsafeRawBufferPointer,
        maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        var scanner = JSONScanner(bytes)
        return try scanner.parseDocument(maxDepth: maxDepth)
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        let outcome = bytes.withUnsafeBytes { buffer in parseCatching(buffer, maxDepth: maxDepth) }
        return try outcome.get()
    }

    public static func parse(_ string: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var string = string
        let outcome = string.withUTF8 { buffer in parseCatching(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth) }
        return try outcome.get()
    }

    private static func parseCatching(
        _ bytes: UnsafeRawBufferPointer,
        maxDepth: Int
    ) -> Result<JSONValue, JSONParseError> {
        do {
            return .success(try parse(bytes, maxDepth: maxDepth))
        } catch {
            return .failure(error)
        }
    }
}

/// One open array or object on the parser's explicit stack.
private struct Frame {
    var isObject: Bool
    /// Where this container's elements start on the value stack (objects push key, value, key, value, ...).
    var start: Int
}

extension JSONScanner {
    /// Parses one complete JSON text: a value surrounded by optional whitespace.
    mutating func parseDocument(maxDepth: Int) throws(JSONParseError) -> JSONValue {
        var values = JSONValueStack(capacity: 16)
        var frames: [Frame] = []  // allocated at the first non-empty container, like `values`
        outer: while true {
            skipWhitespace()
            guard index < count else { throw fail(.unexpectedEnd) }
            var value: JSONValue
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard frames.count < maxDepth else { throw fail(.tooDeep) }
                index += 1
                skipWhitespace()
                if index < count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    value = .object(JSONObject())
                } else {
                    frames.append(Frame(isObject: true, start: values.count))
                    try parseMemberName(into: &values)
                    continue outer
                }
            case UInt8(ascii: "["):
                guard frames.count < maxDepth else { throw fail(.tooDeep) }
                index += 1
                skipWhitespace()
                if index < count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    frames.append(Frame(isObject: false, start: values.count))
                    continue outer
                }
            case UInt8(ascii: "\""):
                index += 1
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            default:
                throw fail(.unexpectedCharacter)
            }

            // A value is complete: hand it to the enclosing container, closing containers as they end.
            while true {
                guard let frame = frames.last else {
                    skipWhitespace()
                    guard index == count else { throw fail(.trailingData) }
                    return value
                }
                values.push(value)
                skipWhitespace()
                guard index < count else { throw fail(.unexpectedEnd) }
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") {
                    index += 1
                    if frame.isObject { try parseMemberName(into: &values) }
                    continue outer
                }
                guard byte == (frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw fail(.unexpectedCharacter)
                }
                index += 1
                if frame.isObject {
                    value = .object(values.popObject(from: frame.start))
                } else {
                    value = .array(values.popArray(from: frame.start))
                }
                frames.removeLast()
            }
        }
    }

    /// Reads `"name"` and `:` (with whitespace) and pushes the name on the value stack.
    private mutating func parseMemberName(into values: inout JSONValueStack) throws(JSONParseError) {
        skipWhitespace()
        guard index < count else { throw fail(.unexpectedEnd) }
        guard bytes[index] == UInt8(ascii: "\"") else { throw fail(.unexpectedCharacter) }
        index += 1
        values.push(.string(try parseString()))
        skipWhitespace()
        guard index < count else { throw fail(.unexpectedEnd) }
        guard bytes[index] == UInt8(ascii: ":") else { throw fail(.unexpectedCharacter) }
        index += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let length = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        for offset in 0..<length {
            guard index + offset < count else { throw JSONParseError(.unexpectedEnd, at: count) }
            guard bytes[index + offset] == expected[offset] else {
                throw JSONParseError(.unexpectedCharacter, at: index + offset)
            }
        }
        index += length
    }
}

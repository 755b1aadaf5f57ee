import LifebusJSON

/// The fast path of `RPCCodec.decode(line:)` for the lines peers send most, written as every Lifebus peer writes
/// them: answers `{"jsonrpc":"2.0","id":N,"result":…}`, requests `{"jsonrpc":"2.0","id":N,"method":"M"}` (or
/// with `,"params":…` last) and notifications (the same without `"id":N,`).
extension RPCCodec {
    /// Decodes a canonical answer, request or notification (N a plain integer of at most 18 digits, M a method
    /// name of printable ASCII without escapes) without a tree for the envelope: only the result or the params are
    /// parsed; `nil` for any other line, which then takes the general path.
    ///
    /// Same outcome as the general path: the envelope is matched byte for byte, and the result or params (all
    /// between `"result":` / `"params":` and the line's last `}`) must parse as one JSON value, which holds exactly
    /// when the whole line is that one object (one level deeper, hence the depth limit one less). Params that are
    /// neither an array nor an object are left to the general path, which refuses them. `decoding` gives the method
    /// names' constants and reads its packed method's params (see `decode(line:decoding:)`).
    static func decodeCanonical(
        _ line: UnsafeRawBufferPointer, decoding: (any RPCDecoding.Type)? = nil
    ) -> RPCInbound? {
        guard let base = line.baseAddress, line.count >= 30, line[line.count - 1] == UInt8(ascii: "}") else {
            return nil
        }
        var reader = CanonicalReader(position: base, last: base + (line.count - 1))
        guard reader.skip("{\"jsonrpc\":\"2.0\",") else { return nil }
        var id: RPCID?
        if reader.skip("\"id\":") {
            guard let number = reader.plainInteger(), reader.skip(",") else { return nil }
            id = .number(number)
            if reader.skip("\"result\":") {
                guard let result = reader.finalValue() else { return nil }
                return .message(.response(RPCResponse(id: id, result: .success(result))))
            }
        }
        guard reader.skip("\"method\":\""), let method = reader.plainString(decoding) else { return nil }
        if reader.atLast {
            return .message(.request(RPCRequest(id: id, method: method)))
        }
        guard reader.skip(",\"params\":") else { return nil }
        if let packing = decoding?.packing, method == packing.method, let read = packing.read(canonical: reader.rest) {
            let request = switch read {
            case .packed(let bits): RPCRequest(id: id, method: method, packed: bits, by: packing)
            case .tree(let params): RPCRequest(id: id, method: method, params: params)
            }
            return .message(.request(request))
        }
        guard let params = reader.finalValue() else { return nil }
        switch params {
        case .array, .object: return .message(.request(RPCRequest(id: id, method: method, params: params)))
        default: return nil
        }
    }
}

extension RPCCodec {
    /// The id and the result's text of an answer written as peers write it, `{"jsonrpc":"2.0","id":N,"result":R}`
    /// (N as `decodeCanonical` takes it), without parsing R; `nil` for any other line. For a reader that turns R
    /// straight into a typed value: when it cannot, the line goes through `decode(line:)` (R may not even be JSON).
    public static func canonicalAnswer(_ line: UnsafeRawBufferPointer) -> (id: Int64, result: UnsafeRawBufferPointer)? {
        guard let base = line.baseAddress, line.count >= 35, line[line.count - 1] == UInt8(ascii: "}") else {
            return nil
        }
        var reader = CanonicalReader(position: base, last: base + (line.count - 1))
        guard reader.skip("{\"jsonrpc\":\"2.0\",\"id\":"), let id = reader.plainInteger(), reader.skip(",\"result\":")
        else { return nil }
        return (id, UnsafeRawBufferPointer(start: reader.position, count: reader.last - reader.position))
    }
}

/// A read position in one line for `RPCCodec.decodeCanonical`: fixed fragments compared a word at a time, no
/// bounds check per byte. Invariant: `position <= last`, where `last` points at the line's final `}` (every read
/// stops before it, so the line is never read past).
private struct CanonicalReader {
    var position: UnsafeRawPointer
    let last: UnsafeRawPointer

    /// True, with `position` moved past it, when `text` comes next (and ends before `last`).
    @inline(__always)
    mutating func skip(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard last - position >= length else { return false }
        let expected = UnsafeRawPointer(text.utf8Start)
        if length >= 8 {
            // Whole words, the last one overlapping the one before it when the length is not a multiple of 8.
            var offset = 0
            while offset &+ 8 < length {
                guard word(position, offset) == word(expected, offset) else { return false }
                offset &+= 8
            }
            guard word(position, length &- 8) == word(expected, length &- 8) else { return false }
        } else {
            for offset in 0..<length
            where position.load(fromByteOffset: offset, as: UInt8.self)
                != expected.load(fromByteOffset: offset, as: UInt8.self)
            {
                return false
            }
        }
        position += length
        return true
    }

    @inline(__always)
    private func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Whether the reader stands on the line's final `}`.
    var atLast: Bool { position == last }

    /// A non-negative integer written without a sign, leading zeros, fraction or exponent, of at most 18 digits
    /// (so it cannot overflow); `nil` otherwise.
    mutating func plainInteger() -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while position < last {
            let byte = position.load(as: UInt8.self) &- UInt8(ascii: "0")
            guard byte < 10 else { break }
            guard digits < 18, digits == 0 || value != 0 else { return nil }  // 19 digits could overflow; "07"
            value = value &* 10 &+ Int64(byte)
            digits &+= 1
            position += 1
        }
        return digits > 0 ? value : nil
    }

    /// The rest of a string whose opening quote was read, up to and past its closing quote, when it holds only
    /// printable ASCII without escapes (as `decoding`'s constant when it knows the name); `nil` otherwise.
    mutating func plainString(_ decoding: (any RPCDecoding.Type)?) -> String? {
        let start = position
        while position < last {
            let byte = position.load(as: UInt8.self)
            if byte == UInt8(ascii: "\"") {
                let name = UnsafeRawBufferPointer(start: start, count: position - start)
                let text = decoding?.methodName(spelledBy: name) ?? String(decoding: name, as: UTF8.self)
                position += 1
                return text
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            position += 1
        }
        return nil
    }

    /// Everything from here to the final `}`.
    var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: position, count: last - position) }

    /// Everything from here to the final `}` as one JSON value, nested at most one level less than a line may be.
    func finalValue() -> JSONValue? {
        try? JSONParser.parse(rest, maxDepth: JSONParser.defaultMaxDepth - 1)
    }
}

/// The fast path of `RPCCodec.decode(line:)` for the line a peer sends most: the answer to a request, written as
/// every Lifebus peer writes it, `{"jsonrpc":"2.0","id":N,"result":…}`.
extension RPCCodec {
    /// Decodes `{"jsonrpc":"2.0","id":N,"result":R}` (N a plain integer of at most 18 digits) by parsing R alone,
    /// without a tree for the envelope; `nil` for any other line, which then takes the general path.
    ///
    /// Same outcome as the general path: the envelope is matched byte for byte, and R (everything between
    /// `"result":` and the line's last `}`) must parse as one JSON value, which holds exactly when the whole line is
    /// that one object (one level deeper, hence the depth limit one less).
    static func decodeCanonicalResponse(_ line: UnsafeRawBufferPointer) -> RPCInbound? {
        let prefix: StaticString = "{\"jsonrpc\":\"2.0\",\"id\":"
        let separator: StaticString = ",\"result\":"
        guard line.count > prefix.utf8CodeUnitCount + separator.utf8CodeUnitCount + 2, line.last == UInt8(ascii: "}"),
            matches(prefix, in: line, at: 0)
        else { return nil }
        var position = prefix.utf8CodeUnitCount
        var id: Int64 = 0
        let digitsStart = position
        while position < line.count, line[position] >= UInt8(ascii: "0"), line[position] <= UInt8(ascii: "9") {
            guard position - digitsStart < 18 else { return nil }  // checked before the digit: 19 would overflow
            id = id * 10 + Int64(line[position] - UInt8(ascii: "0"))
            position += 1
        }
        let digits = position - digitsStart
        let canonicalNumber = digits == 1 || (digits > 1 && line[digitsStart] != UInt8(ascii: "0"))
        guard canonicalNumber, matches(separator, in: line, at: position) else { return nil }
        let result = UnsafeRawBufferPointer(rebasing: line[(position + separator.utf8CodeUnitCount)..<(line.count - 1)])
        guard let value = try? JSONParser.parse(result, maxDepth: JSONParser.defaultMaxDepth - 1) else { return nil }
        return .message(.response(RPCResponse(id: .number(id), result: .success(value))))
    }

    private static func matches(_ text: StaticString, in line: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= line.count else { return false }
        for index in 0..<count where line[offset + index] != text.utf8Start[index] {
            return false
        }
        return true
    }
}

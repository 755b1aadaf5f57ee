@_spi(RawJSON) public import LifebusJSON

/// Turns one received line into an `RPCInbound`, and messages into JSON-RPC 2.0 text.
///
/// Stateless (a namespace; callable from any thread). Framing is not its job: `decode` takes the bytes of one
/// line without its `\n`, and `encode` writes no newline. Decoding never traps on any input: every problem comes
/// back as `RPCInbound.invalid` or a failed batch element. Encoding writes envelopes directly, members in the
/// order `jsonrpc`, `id`, `method`, `params` / `result`, `error`.
public enum RPCCodec {
    /// The most messages one batch may hold. A larger batch is answered with one `lifebus.LimitExceeded`
    /// (`data.limit` `batchMessages`): it would cost the broker work and an answer out of proportion to the line
    /// (half a million junk elements fit in 1 MiB; 256 `history` requests made a 726 MB answer).
    public static let maxBatchCount = 64

    /// Decodes one line (without its newline). Nesting is limited to `JSONParser.defaultMaxDepth`. `decoding` knows
    /// the methods the peer serves and the one whose params a canonical request carries packed
    /// (`RPCRequest.packedParams(_:)`); the outcome is the same whatever it knows.
    public static func decode(
        line: UnsafeRawBufferPointer, decoding: (any RPCDecoding.Type)? = nil
    ) -> RPCInbound {
        if let canonical = decodeCanonical(line, decoding: decoding) { return canonical }
        let json: JSONValue
        do {
            json = try JSONParser.parse(line)
        } catch {
            return .invalid(.parseError(error.description), id: nil)
        }
        return decode(json: json)
    }

    /// Decodes one line held in an array (without its newline).
    public static func decode(line: [UInt8]) -> RPCInbound {
        line.withUnsafeBytes { decode(line: $0) }
    }

    /// Decodes an already parsed JSON text.
    public static func decode(json: JSONValue) -> RPCInbound {
        if case .array(let elements) = json {
            guard !elements.isEmpty else { return .invalid(.invalidRequest("empty batch"), id: nil) }
            guard elements.count <= maxBatchCount else {
                return .invalid(
                    .limitExceeded("batchMessages", maximum: maxBatchCount, "a batch holds too many messages"), id: nil)
            }
            return .batch(elements.map { element in decodeMessage(element).mapError(\.error) })
        }
        switch decodeMessage(json) {
        case .success(let message): return .message(message)
        case .failure(let failure): return .invalid(failure.error, id: failure.id)
        }
    }

    /// Appends the JSON-RPC text of `message` (no newline).
    public static func encode(_ message: RPCMessage, to buffer: inout [UInt8]) {
        switch message {
        case .request(let request): encode(request, to: &buffer)
        case .response(let response): encode(response, to: &buffer)
        }
    }

    /// The JSON-RPC text of `message` (no newline).
    public static func encode(_ message: RPCMessage) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(128)
        encode(message, to: &buffer)
        return buffer
    }

    /// Appends a batch: `[message,message,...]` (no newline). An empty list writes `[]`, which peers reject;
    /// callers send nothing instead.
    public static func encodeBatch(_ messages: [RPCMessage], to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "["))
        for (position, message) in messages.enumerated() {
            if position > 0 { buffer.append(UInt8(ascii: ",")) }
            encode(message, to: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Appends `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`, leaving out `id` for a notification and `params`
    /// when absent.
    public static func encode(_ request: RPCRequest, to buffer: inout [UInt8]) {
        JSONWriter.appendASCII("{\"jsonrpc\":\"2.0\"", to: &buffer)
        if let id = request.id {
            JSONWriter.appendASCII(",\"id\":", to: &buffer)
            write(id, to: &buffer)
        }
        JSONWriter.appendASCII(",\"method\":", to: &buffer)
        JSONWriter.writeString(request.method, to: &buffer)
        if let params = request.params {
            JSONWriter.appendASCII(",\"params\":", to: &buffer)
            params.write(to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// Appends `{"jsonrpc":"2.0","id":…,"result":…}` or `{"jsonrpc":"2.0","id":…,"error":{…}}`.
    public static func encode(_ response: RPCResponse, to buffer: inout [UInt8]) {
        encodeResponse(id: response.id, result: response.result, to: &buffer)
    }

    /// `encode(_:to:)` of a response given as its parts (the answer to each request: no message is built for it).
    public static func encodeResponse(id: RPCID?, result: Result<JSONValue, RPCError>, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: responseHeadBound(id: id)) { cursor in
            cursor.ascii("{\"jsonrpc\":\"2.0\",\"id\":")
            if let id { write(id, to: &cursor) } else { cursor.null() }
            switch result {
            case .success: cursor.ascii(",\"result\":")
            case .failure: cursor.ascii(",\"error\":")
            }
        }
        switch result {
        case .success(let value): value.write(to: &buffer)
        case .failure(let error): error.write(to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// Appends `{"jsonrpc":"2.0","id":…,"method":…,"params":…}` where the method is given as its JSON text, quotes
    /// included (a lifecycle name's constant), and `writeParams` appends the params' JSON text itself (for the
    /// requests sent most, that have a direct writer).
    static func encodeRequest(
        id: RPCID, quotedMethod: StaticString, to buffer: inout [UInt8],
        writingParams writeParams: (inout [UInt8]) -> Void
    ) {
        JSONWriter.append(to: &buffer, atMost: requestHeadBound(id: id)) { cursor in
            cursor.ascii("{\"jsonrpc\":\"2.0\",\"id\":")
            write(id, to: &cursor)
            cursor.ascii(",\"method\":")
            cursor.name(quotedMethod)
            cursor.ascii(",\"params\":")
        }
        writeParams(&buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// Appends `{"jsonrpc":"2.0","id":…,"result":…}` where `writeResult` appends the result's JSON text itself
    /// (for large results that have a direct writer).
    public static func encodeSuccess(
        id: RPCID?, to buffer: inout [UInt8], writingResult writeResult: (inout [UInt8]) -> Void
    ) {
        JSONWriter.append(to: &buffer, atMost: responseHeadBound(id: id)) { cursor in
            cursor.ascii("{\"jsonrpc\":\"2.0\",\"id\":")
            if let id { write(id, to: &cursor) } else { cursor.null() }
            cursor.ascii(",\"result\":")
        }
        writeResult(&buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// The most bytes a response's text before its result or error takes: keys (32 bytes) and the id.
    static func responseHeadBound(id: RPCID?) -> Int {
        32 + (id.map(bound) ?? 4)
    }

    /// The most bytes `encodeRequest`'s text before the params takes: keys (42 bytes), the id and the method.
    static func requestHeadBound(id: RPCID) -> Int {
        48 + bound(id) + JSONCursor.nameBound
    }

    private static func bound(_ id: RPCID) -> Int {
        switch id {
        case .number: JSONCursor.numberBound
        case .string(let value): JSONCursor.stringBound(value)
        }
    }

    private static func write(_ id: RPCID, to cursor: inout JSONCursor) {
        switch id {
        case .number(let value): cursor.integer(value)
        case .string(let value): cursor.string(value)
        }
    }

    private static func write(_ id: RPCID, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: bound(id)) { write(id, to: &$0) }
    }
}

extension RPCError {
    /// Appends the error object `{"code":…,"message":…,"data":…}` (`data` left out when absent).
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.appendASCII("{\"code\":", to: &buffer)
        JSONWriter.writeInteger(Int64(code), to: &buffer)
        JSONWriter.appendASCII(",\"message\":", to: &buffer)
        JSONWriter.writeString(message, to: &buffer)
        if let data {
            JSONWriter.appendASCII(",\"data\":", to: &buffer)
            data.write(to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// The error object as JSON.
    public var json: JSONValue {
        var object: JSONObject = ["code": .integer(Int64(code)), "message": .string(message)]
        if let data { object.append("data", data) }
        return .object(object)
    }
}

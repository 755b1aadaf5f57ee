public import LifebusJSON

/// Message validation: JSON-RPC 2.0 §4–§5 checked member by member.
extension RPCCodec {
    /// A message that could not be decoded, with the id it carried when that id was readable.
    struct MessageFailure: Error {
        var error: RPCError
        var id: RPCID?
    }

    /// The envelope members of one message object (the last occurrence wins, as in `JSONObject` lookups).
    private struct Envelope {
        var jsonrpc: JSONValue?
        var id: JSONValue?
        var method: JSONValue?
        var params: JSONValue?
        var result: JSONValue?
        var error: JSONValue?

        init(_ object: JSONObject) {
            for member in object {
                switch member.key {
                case "jsonrpc": jsonrpc = member.value
                case "id": id = member.value
                case "method": method = member.value
                case "params": params = member.value
                case "result": result = member.value
                case "error": error = member.value
                default: break
                }
            }
        }
    }

    static func decodeMessage(_ json: JSONValue) -> Result<RPCMessage, MessageFailure> {
        guard case .object(let object) = json else {
            return invalid("a message must be a JSON object, not \(json.typeName)", id: nil)
        }
        let envelope = Envelope(object)
        let readableID = envelope.id.flatMap(RPCID.init(json:))
        guard envelope.jsonrpc == .string("2.0") else {
            return invalid("'jsonrpc' must be \"2.0\"", id: readableID)
        }
        if let method = envelope.method {
            return decodeRequest(envelope, method: method, readableID: readableID)
        }
        return decodeResponse(envelope, readableID: readableID)
    }

    private static func decodeRequest(
        _ envelope: Envelope,
        method: JSONValue,
        readableID: RPCID?
    ) -> Result<RPCMessage, MessageFailure> {
        guard case .string(let name) = method else {
            return invalid("'method' must be a string", id: readableID)
        }
        guard envelope.result == nil, envelope.error == nil else {
            return invalid("a request cannot carry 'result' or 'error'", id: readableID)
        }
        if let idValue = envelope.id, readableID == nil {
            return invalid("'id' must be an integer or a string, not \(idValue.typeName)", id: nil)
        }
        if let params = envelope.params {
            switch params {
            case .array, .object: break
            default: return invalid("'params' must be an array or an object", id: readableID)
            }
        }
        return .success(.request(RPCRequest(id: readableID, method: name, params: envelope.params)))
    }

    private static func decodeResponse(
        _ envelope: Envelope,
        readableID: RPCID?
    ) -> Result<RPCMessage, MessageFailure> {
        switch (envelope.result, envelope.error) {
        case (nil, nil):
            return invalid("a message needs 'method', 'result' or 'error'", id: readableID)
        case (.some, .some):
            return invalid("a response cannot carry both 'result' and 'error'", id: readableID)
        default:
            break
        }
        guard let idValue = envelope.id else {
            return invalid("a response needs 'id'", id: nil)
        }
        guard idValue == .null || readableID != nil else {
            return invalid("'id' must be an integer, a string or null, not \(idValue.typeName)", id: nil)
        }
        if let result = envelope.result {
            return .success(.response(RPCResponse(id: readableID, result: .success(result))))
        }
        switch RPCError.decode(envelope.error ?? .null) {
        case .success(let error):
            return .success(.response(RPCResponse(id: readableID, result: .failure(error))))
        case .failure(let problem):
            return .failure(MessageFailure(error: problem, id: readableID))
        }
    }

    private static func invalid(_ detail: String, id: RPCID?) -> Result<RPCMessage, MessageFailure> {
        .failure(MessageFailure(error: .invalidRequest(detail), id: id))
    }
}

extension RPCError {
    /// Reads an error object: `code` an integer, `message` a string, `data` anything. A malformed one fails with
    /// -32600 saying why.
    public static func decode(_ json: JSONValue) -> Result<RPCError, RPCError> {
        guard case .object(let object) = json else {
            return .failure(.invalidRequest("'error' must be an object, not \(json.typeName)"))
        }
        guard case .integer(let code)? = object["code"], let intCode = Int(exactly: code) else {
            return .failure(.invalidRequest("'error.code' must be an integer"))
        }
        guard case .string(let message)? = object["message"] else {
            return .failure(.invalidRequest("'error.message' must be a string"))
        }
        return .success(RPCError(code: intCode, message: message, data: object["data"]))
    }
}

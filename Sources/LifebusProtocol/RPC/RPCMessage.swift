public import LifebusJSON

/// A JSON-RPC 2.0 request or notification.
///
/// A plain value (`Sendable`). `id == nil` makes it a notification (no response is sent). `params`, when
/// present, is an array or an object: the decoder rejects anything else with -32600 before building this type.
///
/// A decoder given an `RPCParamsPacking` reads that method's canonical params straight into a word, opaque here
/// (`packedParams(_:)`); their tree is built only when `params` is asked for. Either way `params` and equality see
/// the same JSON.
public struct RPCRequest: Sendable, Equatable {
    public var id: RPCID?
    public var method: String
    private var body: Params

    /// The params as read: a tree, or a word packed by the reader named beside it. (Held any other way, the Swift
    /// 6.3 optimizer built every request twice and copied one into place, ~170 instructions a request; a word beside
    /// the tree it moves like the rest.)
    private enum Params: Sendable {
        case json(JSONValue?)
        case packed(UInt64, any RPCParamsPacking.Type)
    }

    public init(id: RPCID?, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.body = .json(params)
    }

    /// A request whose params `packing` read from the line's text into `bits`.
    init(id: RPCID?, method: String, packed bits: UInt64, by packing: any RPCParamsPacking.Type) {
        self.id = id
        self.method = method
        self.body = .packed(bits, packing)
    }

    public var params: JSONValue? {
        get {
            switch body {
            case .json(let params): params
            case .packed(let bits, let packing): packing.params(unpacking: bits)
            }
        }
        set { body = .json(newValue) }
    }

    /// The word `packing` read the params into when the decoder was given it; `nil` otherwise (then `params` holds
    /// whatever was sent).
    public func packedParams(_ packing: any RPCParamsPacking.Type) -> UInt64? {
        guard case .packed(let bits, let reader) = body, reader == packing else { return nil }
        return bits
    }

    /// A notification: a request without an id.
    public static func notification(_ method: String, params: JSONValue? = nil) -> RPCRequest {
        RPCRequest(id: nil, method: method, params: params)
    }

    public static func == (lhs: RPCRequest, rhs: RPCRequest) -> Bool {
        lhs.id == rhs.id && lhs.method == rhs.method && lhs.params == rhs.params
    }
}

/// A JSON-RPC 2.0 response: exactly one of a result or an error (a `Result`, so it cannot carry both).
///
/// A plain value (`Sendable`). `id == nil` is written as `"id":null`: the answer to a request whose id could not
/// be read (parse errors, invalid requests).
public struct RPCResponse: Sendable, Equatable {
    public var id: RPCID?
    public var result: Result<JSONValue, RPCError>

    public init(id: RPCID?, result: Result<JSONValue, RPCError>) {
        self.id = id
        self.result = result
    }

    public static func success(id: RPCID?, _ value: JSONValue) -> RPCResponse {
        RPCResponse(id: id, result: .success(value))
    }

    public static func failure(id: RPCID?, _ error: RPCError) -> RPCResponse {
        RPCResponse(id: id, result: .failure(error))
    }
}

/// One JSON-RPC 2.0 message: a request (or notification) or a response.
public enum RPCMessage: Sendable, Equatable {
    case request(RPCRequest)
    case response(RPCResponse)
}

/// What one received line holds, as decoded by `RPCCodec.decode(line:)`.
///
/// - `message`: one well-formed message.
/// - `batch`: a non-empty JSON array; each element decoded on its own (an element that is not a valid message is a
///   `.failure` carrying -32600; its response goes out with `"id":null`, as in JSON-RPC 2.0 §7's examples).
/// - `invalid`: nothing usable: -32700 for text that is not JSON (or not UTF-8), -32600 for JSON that is not a
///   message (then `id` is the message's id when one could be read) and for an empty batch, and
///   `lifebus.LimitExceeded` for a batch longer than `RPCCodec.maxBatchCount`.
public enum RPCInbound: Sendable, Equatable {
    case message(RPCMessage)
    case batch([Result<RPCMessage, RPCError>])
    case invalid(RPCError, id: RPCID?)
}

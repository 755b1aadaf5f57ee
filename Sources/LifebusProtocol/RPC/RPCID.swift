public import LifebusJSON

/// A JSON-RPC request id: an integer or a string (JSON-RPC 2.0 §4; model: ChimeHQ/JSONRPC `JSONId`).
///
/// A plain value (`Sendable`). Null ids are not representable: a request without an id is a notification
/// (`RPCRequest.id == nil`) and a response to an unreadable id carries `RPCResponse.id == nil`. Numeric ids must be
/// integers that fit `Int64` (fractions, although JSON-RPC only discourages them, are rejected as invalid requests).
public enum RPCID: Hashable, Sendable {
    case number(Int64)
    case string(String)

    /// The id held by `json`, or `nil` when `json` is not an integer or a string.
    public init?(json: JSONValue) {
        switch json {
        case .integer(let value): self = .number(value)
        case .string(let value): self = .string(value)
        default: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .number(let value): return .integer(value)
        case .string(let value): return .string(value)
        }
    }
}

extension RPCID: CustomStringConvertible {
    public var description: String { json.jsonText }
}

extension RPCID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .number(value) }
}

extension RPCID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

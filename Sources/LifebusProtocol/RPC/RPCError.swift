public import LifebusJSON

/// A JSON-RPC 2.0 error object: code, message and optional data.
///
/// A plain value (`Sendable`), thrown by the wire types' decoders and carried in `RPCResponse`. By Lifebus
/// convention `data` is an object whose `name` member names the error in reverse-domain form
/// (`jsonrpc.InvalidParams`, `lifebus.AppNotFound`), so machines match on `name`, people read `message`.
/// Every constructor in this module sets it; an error decoded from a peer may lack it (`name == nil`).
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// A Lifebus error: `code.code`, `message`, and `data` = `{"name": code.name}` followed by `extra`'s members.
    public init(_ code: LifebusErrorCode, _ message: String, data extra: JSONObject = [:]) {
        self.init(code: code.code, name: code.name, message: message, extra: extra)
    }

    init(code: Int, name: String, message: String, extra: JSONObject = [:]) {
        var data = JSONObject()
        data.append("name", .string(name))
        for member in extra where member.key != "name" {
            data.append(member.key, member.value)
        }
        self.init(code: code, message: message, data: .object(data))
    }

    /// `data.name`, the machine-readable name of the error, when present.
    public var name: String? {
        data?["name"]?.stringValue
    }

    public var description: String {
        "\(name ?? "error") (\(code)): \(message)"
    }
}

/// The standard JSON-RPC 2.0 errors (§5.1), each with its `data.name`.
extension RPCError {
    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603

    /// -32700: the text is not JSON (or not UTF-8).
    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: parseErrorCode, name: "jsonrpc.ParseError", message: "Parse error: \(detail)")
    }

    /// -32600: JSON that is not a valid request.
    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: invalidRequestCode, name: "jsonrpc.InvalidRequest", message: "Invalid request: \(detail)")
    }

    /// -32601: no such method. `data.method` names it, once and shortened by `echo(_:)` (so a 1 MB name cannot
    /// make a 2 MB answer); the message does not repeat it.
    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(
            code: methodNotFoundCode,
            name: "jsonrpc.MethodNotFound",
            message: "Method not found",
            extra: ["method": .string(echo(method))]
        )
    }

    /// The longest stretch of peer input an error repeats, in UTF-8 bytes.
    public static let maxEcho = 64

    /// Peer input as an error may repeat it: whole when at most `maxEcho` bytes, else its first `maxEcho` bytes
    /// (cut at a character boundary) followed by "…".
    public static func echo(_ text: String) -> String {
        guard text.utf8.count > maxEcho else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maxEcho)
        while end.samePosition(in: text.unicodeScalars) == nil { end = text.utf8.index(before: end) }
        return String(text.unicodeScalars[..<end]) + "…"
    }

    /// -32602: the params are wrong; `detail` names the field.
    public static func invalidParams(_ detail: String) -> RPCError {
        RPCError(code: invalidParamsCode, name: "jsonrpc.InvalidParams", message: "Invalid params: \(detail)")
    }

    /// -32602 about one field: the message names it and `data.field` holds its dotted path (`app.id`).
    public static func invalidParams(field: String, _ problem: String) -> RPCError {
        RPCError(
            code: invalidParamsCode,
            name: "jsonrpc.InvalidParams",
            message: "Invalid params: '\(field)' \(problem)",
            extra: ["field": .string(field)]
        )
    }

    /// `lifebus.LimitExceeded` (-32012): a request would exceed the documented limit named `limit` (also in
    /// `data.limit`), whose value is `maximum` (`data.maximum`).
    public static func limitExceeded(_ limit: String, maximum: Int, _ detail: String) -> RPCError {
        RPCError(
            .limitExceeded, "\(detail) (limit \(limit): \(maximum))",
            data: ["limit": .string(limit), "maximum": .integer(Int64(maximum))]
        )
    }

    /// -32603: the broker failed.
    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: internalErrorCode, name: "jsonrpc.InternalError", message: "Internal error: \(detail)")
    }
}

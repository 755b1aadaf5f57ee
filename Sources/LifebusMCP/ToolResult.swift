import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// Builds `tools/call` results: text for the model to read, `structuredContent` for programs, and `isError` for
/// failures the model should see and act on (the broker's refusal, bad arguments), as MCP asks. Stateless.
enum ToolResult {
    /// A success: `text` and, when given, the same facts as a JSON object.
    static func success(_ text: String, structured: JSONValue? = nil) -> JSONValue {
        var result: JSONObject = ["content": [["type": "text", "text": .string(text)]]]
        if let structured { result.append("structuredContent", object(structured)) }
        result.append("isError", false)
        return .object(result)
    }

    /// A failure carrying the error's `data.name` (the broker's, or ours) in the text and in `structuredContent`; a
    /// launch that timed out says what to do about it unless `hint` says something else.
    static func failure(_ error: RPCError, hint: String? = nil) -> JSONValue {
        let name = error.name ?? "lifebus.Error"
        var text = "\(name): \(error.message)"
        if let reason = error.data?["reason"]?.stringValue { text += " (reason: \(reason))" }
        if let hint = hint ?? launchTimeoutHint(error) { text += "\n\(hint)" }
        var details: JSONObject = ["code": .integer(Int64(error.code)), "name": .string(name),
                                   "message": .string(error.message)]
        if let data = error.data { details.append("data", data) }
        return [
            "content": [["type": "text", "text": .string(text)]],
            "structuredContent": ["error": .object(details)],
            "isError": true,
        ]
    }

    /// For `lifebus.TimedOut` with `data.reason` `launchTimedOut` (a timeout, not a refusal): why, and what to do.
    private static func launchTimeoutHint(_ error: RPCError) -> String? {
        guard error.lifebusCode == .timedOut,
            error.data?["reason"]?.stringValue == RejectionReason.launchTimedOut.rawValue,
            let app = error.data?["app"]?.stringValue
        else { return nil }
        return "A timeout, not a refusal: no process of \(app) connected within its launch budget. A program that "
            + "does not speak the protocol needs `lifebus subscribe --id \(app) -- PROGRAM`; an installed app's "
            + "output is in `lifebus logs \(app)`."
    }

    /// `structuredContent` must be an object: other values are wrapped as `{"result": value}`.
    private static func object(_ value: JSONValue) -> JSONValue {
        if case .object = value { return value }
        return ["result": value]
    }
}

import LifebusJSON
import LifebusProtocol
import Testing

/// Helpers shared by the wire type tests.
enum Wire {
    /// The `data.field` of the -32602 that decoding `json` throws; `nil` when it decodes or fails otherwise.
    /// Also checks that the message names the field, as every -32602 about a field must.
    static func rejectedField<T>(_ decode: (JSONValue) throws(RPCError) -> T, _ json: JSONValue) -> String? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            guard error.code == RPCError.invalidParamsCode, error.name == "jsonrpc.InvalidParams",
                let field = error.data?["field"]?.stringValue
            else { return nil }
            #expect(error.message.contains("'\(field)'"), "\(error)")
            return field
        }
    }

    /// `json` with member `key` set to `value` (`nil` removes it).
    static func with(_ json: JSONValue, _ key: String, _ value: JSONValue?) -> JSONValue {
        var object = json.objectValue ?? [:]
        object[key] = value
        return .object(object)
    }

    static let cause: JSONValue = ["eventID": 3, "event": "call --answer"]

    static let transition: JSONValue = [
        "type": "transition", "seq": 17, "app": "com.example.DeepThoughts", "pid": 1234,
        "callback": "didEnterBackground", "cause": cause, "from": "inactive", "to": "background",
        "firedMs": 10.5, "sentMs": 10.6, "answeredMs": 13.1, "handlerMs": 2.3, "budgetMs": 5000.0,
        "outcome": "ok", "handlerFailed": false, "wallMs": 1_763_780_000_000,
    ]

    static let mark: JSONValue = [
        "type": "mark", "seq": 18, "app": "com.example.DeepThoughts", "pid": 1234, "name": "state-saved",
        "data": ["items": 3], "atMs": 14.2, "wallMs": 1_763_780_000_001,
    ]

    static let transitionRecord = TransitionRecord(
        seq: 17, app: "com.example.DeepThoughts", pid: 1234, callback: .didEnterBackground,
        cause: EventCause(eventID: 3, event: "call --answer"), from: .inactive, to: .background,
        firedMs: 10.5, sentMs: 10.6, answeredMs: 13.1, handlerMs: 2.3, budgetMs: 5000, outcome: .ok,
        wallMs: 1_763_780_000_000
    )
}

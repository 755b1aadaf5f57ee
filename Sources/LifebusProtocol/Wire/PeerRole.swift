import LifebusJSON

/// What a connected peer is, declared in `hello`: an app living through the lifecycle, a controller injecting
/// events, or an observer watching the journal. A plain value (`Sendable`); the raw value is the wire spelling.
public enum PeerRole: String, Sendable, CaseIterable {
    case app
    case controller
    case observer

    /// The role spelled by `json`; -32602 naming `field` otherwise.
    init(json: JSONValue, field: String) throws(RPCError) {
        guard case .string(let text) = json else {
            throw RPCError.invalidParams(field: field, "must be a string, not \(json.typeName)")
        }
        guard let role = PeerRole(rawValue: text) else {
            let choices = PeerRole.allCases.map(\.rawValue).joined(separator: ", ")
            throw RPCError.invalidParams(field: field, "must be one of \(choices)")
        }
        self = role
    }
}

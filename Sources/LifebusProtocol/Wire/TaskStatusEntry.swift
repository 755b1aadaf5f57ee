public import LifebusJSON
public import LifebusLifecycle

/// One `BGTask` of an app in `status` (`schemas/app-status.schema.json`, `tasks`; `Protocol/README.md` §11.2):
/// `{"identifier":"com.x.refresh","kind":"appRefresh","state":"pending","earliestBeginMs":900000}` — `state`
/// `pending` (submitted, not yet due or run) or `running` (its launch handler was called, not completed);
/// `earliestBeginMs` a pending task's earliest begin (absent: due at once), `deadlineMs` a running task's end of
/// budget (absent: until the user returns or cancels), each on the broker's clock. A plain value.
public struct TaskStatusEntry: Sendable, Equatable {
    /// Where the task is. The raw value is the wire spelling.
    public enum State: String, Sendable, CaseIterable {
        case pending, running
    }

    public var identifier: String
    public var kind: BackgroundTaskKind
    public var state: State
    public var earliestBeginMs: Double?
    public var deadlineMs: Double?

    public init(
        identifier: String, kind: BackgroundTaskKind, state: State, earliestBeginMs: Double? = nil,
        deadlineMs: Double? = nil
    ) {
        self.identifier = identifier
        self.kind = kind
        self.state = state
        self.earliestBeginMs = earliestBeginMs
        self.deadlineMs = deadlineMs
    }

    init(reader: ParamsReader) throws(RPCError) {
        identifier = try reader.string("identifier")
        kind = try reader.choice("kind", as: BackgroundTaskKind.self)
        state = try reader.choice("state", as: State.self)
        earliestBeginMs = try reader.optionalDouble("earliestBeginMs")
        deadlineMs = try reader.optionalDouble("deadlineMs")
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "identifier": .string(identifier), "kind": .string(kind.rawValue), "state": .string(state.rawValue),
        ]
        if let earliestBeginMs { object.append("earliestBeginMs", .double(earliestBeginMs)) }
        if let deadlineMs { object.append("deadlineMs", .double(deadlineMs)) }
        return .object(object)
    }
}

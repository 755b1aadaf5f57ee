public import LifebusJSON
public import LifebusLifecycle

/// One `BGTask` of an app in `status` (`schemas/app-status.schema.json`, `tasks`; `Protocol/README.md` §11.2):
/// `{"identifier":"com.x.refresh","kind":"appRefresh","state":"pending","earliestBeginMs":900000}` — `state`
/// `pending` (submitted, not yet due or run), `waiting` (a `processing` task past its earliest begin, held by the
/// device's conditions: `waitingFor` lists them) or `running` (its launch handler was called, not completed);
/// `earliestBeginMs` a pending task's earliest begin (absent: due at once), `deadlineMs` a running task's end of
/// budget (absent: until the user returns or cancels), each on the broker's clock. A plain value.
public struct TaskStatusEntry: Sendable, Equatable {
    /// Where the task is. The raw value is the wire spelling.
    public enum State: String, Sendable, CaseIterable {
        case pending, waiting, running
    }

    public var identifier: String
    public var kind: BackgroundTaskKind
    public var state: State
    public var earliestBeginMs: Double?
    public var deadlineMs: Double?
    /// What a `waiting` task waits for (`idle`, `externalPower`, `networkConnectivity`); empty otherwise, and then
    /// not written.
    public var waitingFor: [ProcessingRequirement]

    public init(
        identifier: String, kind: BackgroundTaskKind, state: State, earliestBeginMs: Double? = nil,
        deadlineMs: Double? = nil, waitingFor: [ProcessingRequirement] = []
    ) {
        self.identifier = identifier
        self.kind = kind
        self.state = state
        self.earliestBeginMs = earliestBeginMs
        self.deadlineMs = deadlineMs
        self.waitingFor = waitingFor
    }

    init(reader: ParamsReader) throws(RPCError) {
        identifier = try reader.string("identifier")
        kind = try reader.choice("kind", as: BackgroundTaskKind.self)
        state = try reader.choice("state", as: State.self)
        earliestBeginMs = try reader.optionalDouble("earliestBeginMs")
        deadlineMs = try reader.optionalDouble("deadlineMs")
        waitingFor = reader.has("waitingFor")
            ? try reader.stringArray("waitingFor").compactMap(ProcessingRequirement.init(rawValue:)) : []
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "identifier": .string(identifier), "kind": .string(kind.rawValue), "state": .string(state.rawValue),
        ]
        if let earliestBeginMs { object.append("earliestBeginMs", .double(earliestBeginMs)) }
        if let deadlineMs { object.append("deadlineMs", .double(deadlineMs)) }
        if !waitingFor.isEmpty { object.append("waitingFor", .array(waitingFor.map { .string($0.rawValue) })) }
        return .object(object)
    }
}

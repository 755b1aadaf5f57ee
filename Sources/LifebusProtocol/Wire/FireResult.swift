/// The result of `fire`: the event's id and label, and the transitions it caused.
///
/// A plain value (`Sendable`). Wire form:
/// `{"eventID":3,"event":"call --answer","completed":true,"transitions":[TransitionRecord…],"noApp":false}`.
/// `event` is `FireParams.label`. `completed` is `true` when every transition the event caused had completed
/// before the answer (always so for `wait: true`); with `wait: false` the answer comes at once, `completed` is
/// `false` and `transitions` holds those already done (usually none). Invariant: `eventID` ≥ 1; `transitionsText`,
/// when set, is the JSON text of `transitions` (comma-separated, no brackets), and is dropped when they change.
public struct FireResult: Sendable, Equatable {
    public var eventID: Int64
    public var event: String
    public var completed: Bool
    public var transitions: [TransitionRecord] {
        didSet { transitionsText = nil }
    }
    /// The text of `transitions` as the journal already wrote it, so `write(to:)` copies it instead of encoding
    /// every record a second time (a broadcast's answer carries one record per app).
    public private(set) var transitionsText: [UInt8]?

    public init(eventID: Int64, event: String, completed: Bool, transitions: [TransitionRecord] = []) {
        self.eventID = eventID
        self.event = event
        self.completed = completed
        self.transitions = transitions
    }

    /// A result whose records' text is at hand: `transitionsText` must be what writing `transitions` gives,
    /// comma-separated.
    public init(eventID: Int64, event: String, completed: Bool, transitions: [TransitionRecord],
                transitionsText: [UInt8]) {
        self.init(eventID: eventID, event: event, completed: completed, transitions: transitions)
        self.transitionsText = transitionsText
    }

    /// Equal when the members are (the cached text is a copy of `transitions`, not a member).
    public static func == (left: FireResult, right: FireResult) -> Bool {
        left.eventID == right.eventID && left.event == right.event && left.completed == right.completed
            && left.transitions == right.transitions
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        eventID = try reader.integer("eventID", as: Int64.self, minimum: 1)
        event = try reader.string("event")
        completed = try reader.bool("completed", default: false)
        transitions = try reader.array("transitions") { value, path throws(RPCError) in
            try TransitionRecord(json: value, path: path)
        }
    }

    /// The event was carried out and moved no app (e.g. `call` with no app running: the call rings, nobody
    /// resigns active). Derived, written for readers; not an error.
    public var noApp: Bool { completed && transitions.isEmpty }

    public var json: JSONValue {
        [
            "eventID": .integer(eventID),
            "event": .string(event),
            "completed": .bool(completed),
            "transitions": .array(transitions.map(\.json)),
            "noApp": .bool(noApp),
        ]
    }
}

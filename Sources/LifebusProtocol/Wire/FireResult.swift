public import LifebusJSON

/// The result of `fire`: the event's id and label, and the transitions it caused.
///
/// A plain value (`Sendable`). Wire form:
/// `{"eventID":3,"event":"call --answer","completed":true,"transitions":[TransitionRecord…],"noApp":false}`.
/// `event` is `FireParams.label`. `completed` is `true` when every transition the event caused had completed
/// before the answer (always so for `wait: true`); with `wait: false` the answer comes at once, `completed` is
/// `false` and `transitions` holds those already done (usually none). Invariant: `eventID` ≥ 1. The broker sends
/// the same wire form from its records' text (`WrittenFireResult`) without holding the records.
public struct FireResult: Sendable, Equatable {
    public var eventID: Int64
    public var event: String
    public var completed: Bool
    public var transitions: [TransitionRecord]

    public init(eventID: Int64, event: String, completed: Bool, transitions: [TransitionRecord] = []) {
        self.eventID = eventID
        self.event = event
        self.completed = completed
        self.transitions = transitions
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

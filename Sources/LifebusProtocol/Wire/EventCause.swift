public import LifebusJSON

/// The controller event that caused a callback or transition: its id and its human label.
///
/// A plain value (`Sendable`). Wire form: `{"eventID":3,"event":"call --answer"}`. `eventID` is minted by the
/// broker (positive, unique for the broker's life; the one answered in `FireResult.eventID`); `event` is
/// `FireParams.label` of the event that was fired.
public struct EventCause: Sendable, Equatable {
    public var eventID: Int64
    public var event: String

    /// The label of the events a stopping broker makes itself to end each app it spawned (Protocol/README.md §16.5,
    /// lifecycle row R142): the only `event` that is not a `FireParams.label`.
    public static let shutdownLabel = "shutdown"

    /// The placeholder a record without a cause stores (never written: its flag says there is none).
    @inlinable static var none: EventCause { EventCause(eventID: 0, event: "") }

    @inlinable
    public init(eventID: Int64, event: String) {
        self.eventID = eventID
        self.event = event
    }

    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(json: JSONValue, path: String) throws(RPCError) {
        try self.init(reader: try ParamsReader(json, path: path))
    }

    init(reader: ParamsReader) throws(RPCError) {
        eventID = try reader.integer("eventID", as: Int64.self, minimum: 1)
        event = try reader.string("event")
    }

    public var json: JSONValue {
        ["eventID": .integer(eventID), "event": .string(event)]
    }
}

extension ParamsReader {
    /// An optional `EventCause` member (`null` or absent → `nil`), errors naming `cause.eventID` and so on.
    func optionalCause(_ key: String) throws(RPCError) -> EventCause? {
        guard let value = optional(key) else { return nil }
        return try EventCause(json: value, path: path(key))
    }
}

@_spi(RawJSON) public import LifebusJSON

/// The controller event that caused a callback or transition: its id and its human label.
///
/// A plain value (`Sendable`). Wire form: `{"eventID":3,"event":"call --answer"}`. `eventID` is minted by the
/// broker (positive, unique for the broker's life; the one answered in `FireResult.eventID`); `event` is
/// `FireParams.label` of the event that was fired.
///
/// Every callback an event causes and every record of its chain carries its cause, so the broker writes that text
/// once per event, not twice per app: the id, the label and the wire text (`write(to:)` copies it) share one
/// immutable box made with the value, as `AppID` keeps its digest. Invariant: `text` is the wire form of
/// (`eventID`, `event`); setting either makes a new box.
public struct EventCause: Sendable, Equatable {
    /// The id, the label and their wire text, never changed once made.
    private final class Written: Sendable {
        let eventID: Int64
        let event: String
        let text: [UInt8]

        init(eventID: Int64, event: String) {
            self.eventID = eventID
            self.event = event
            var text: [UInt8] = []
            JSONWriter.append(to: &text, atMost: EventCause.writtenBound(event: event)) { cursor in
                cursor.ascii("{\"eventID\":")
                cursor.integer(eventID)
                cursor.ascii(",\"event\":")
                cursor.string(event)
                cursor.byte(UInt8(ascii: "}"))
            }
            self.text = text
        }
    }

    private var written: Written

    public var eventID: Int64 {
        get { written.eventID }
        set { written = Written(eventID: newValue, event: written.event) }
    }

    public var event: String {
        get { written.event }
        set { written = Written(eventID: written.eventID, event: newValue) }
    }

    /// The label of the events a stopping broker makes itself to end each app it spawned (Protocol/README.md §16.5,
    /// lifecycle row R142): the only `event` that is not a `FireParams.label`.
    public static let shutdownLabel = "shutdown"

    /// The placeholder a record without a cause stores (never written: its flag says there is none); one value, so
    /// a record without a cause makes no box.
    @usableFromInline static let none = EventCause(eventID: 0, event: "")

    public init(eventID: Int64, event: String) {
        written = Written(eventID: eventID, event: event)
    }

    public static func == (lhs: EventCause, rhs: EventCause) -> Bool {
        lhs.written === rhs.written || (lhs.eventID == rhs.eventID && lhs.event == rhs.event)
    }

    /// The wire text, `{"eventID":…,"event":…}`, lent to `body`.
    func withText<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        written.text.withUnsafeBytes(body)
    }

    /// How many bytes the wire text takes.
    var textCount: Int { written.text.count }

    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(json: JSONValue, path: String) throws(RPCError) {
        try self.init(reader: try ParamsReader(json, path: path))
    }

    init(reader: ParamsReader) throws(RPCError) {
        let eventID = try reader.integer("eventID", as: Int64.self, minimum: 1)
        self.init(eventID: eventID, event: try reader.string("event"))
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

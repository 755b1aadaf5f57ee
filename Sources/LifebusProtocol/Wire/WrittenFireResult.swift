/// A `fire`'s answer as the broker sends it: `FireResult`'s members, with its records only as the JSON text the
/// journal already wrote, so a broadcast's answer (one record per app) neither encodes them twice nor holds them as
/// values.
///
/// A plain value (`Sendable`); the wire form is `FireResult`'s. Invariant: `transitionsText` is `transitionCount`
/// records' JSON text joined by commas (empty when there are none). Whoever sends it may splice `transitionsText`
/// between `writeHead` and `writeTail` without copying it.
public struct WrittenFireResult: Sendable {
    public var eventID: Int64
    public var event: String
    public var completed: Bool
    public var transitionCount: Int
    public var transitionsText: [UInt8]

    /// A result with records: `transitionsText` must be `transitionCount` records' text joined by commas.
    public init(eventID: Int64, event: String, completed: Bool, transitionCount: Int, transitionsText: [UInt8]) {
        self.eventID = eventID
        self.event = event
        self.completed = completed
        self.transitionCount = transitionCount
        self.transitionsText = transitionsText
    }

    /// A result without records (an event not waited for).
    public init(eventID: Int64, event: String, completed: Bool) {
        self.init(eventID: eventID, event: event, completed: completed, transitionCount: 0, transitionsText: [])
    }

    /// `FireResult.noApp`: the event completed and moved no app.
    public var noApp: Bool { completed && transitionCount == 0 }

    /// Appends the result's JSON text.
    public func write(to buffer: inout [UInt8]) {
        // Room for the text at once (an answer for 1,000 apps is ~350 KB: doubling would hold 1.5×).
        buffer.reserveCapacity(buffer.count + transitionsText.count + 128 + event.utf8.count * 6)
        writeHead(to: &buffer)
        buffer.append(contentsOf: transitionsText)
        writeTail(to: &buffer)
    }

    /// Appends the text before the records: `{"eventID":…,"event":…,"completed":…,"transitions":[`.
    public func writeHead(to buffer: inout [UInt8]) {
        FireResult.writeHead(eventID: eventID, event: event, completed: completed, to: &buffer)
    }

    /// Appends the text after the records: `],"noApp":…}`.
    public func writeTail(to buffer: inout [UInt8]) {
        FireResult.writeTail(noApp: noApp, to: &buffer)
    }
}

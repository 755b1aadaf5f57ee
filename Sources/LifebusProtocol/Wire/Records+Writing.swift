@_spi(RawJSON) import LifebusJSON
import LifebusLifecycle

/// Direct writers for the records and answers the broker emits most (every transition goes to the journal and, in
/// a `fire` answer, to the controller; every `ping` is answered): they write the same text as `json.write(to:)`,
/// member for member, without building a `JSONValue` tree first, through one cursor over room reserved once per
/// record. `RecordWritingTests` pins the equality.
extension TransitionRecord {
    /// Appends the record's JSON text (no newline).
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: writtenBound) { write(to: &$0) }
    }

    /// The most bytes `write` needs: `JSONCursor.transitionBound`. `RecordWriterBoundTests` checks it on random and
    /// widest records; `write(to:)` asserts it in debug builds.
    var writtenBound: Int {
        JSONCursor.transitionBound(app: app, cause: hasCause ? storedCause : nil, scene: scene != nil)
    }

    func write(to cursor: inout JSONCursor) {
        let start = cursor.position
        defer { assert(cursor.position - start <= writtenBound, "TransitionRecord.writtenBound is too small") }
        cursor.transitionHead(seq: seq, app: app, pid: pid, callback: callback, cause: hasCause ? storedCause : nil,
                              from: from, to: to)
        cursor.ascii(",\"firedMs\":")
        cursor.optionalDouble(firedMs)
        cursor.ascii(",\"sentMs\":")
        cursor.double(sentMs)
        cursor.ascii(",\"answeredMs\":")
        cursor.optionalDouble(answeredMs)
        cursor.ascii(",\"handlerMs\":")
        cursor.optionalDouble(handlerMs)
        cursor.ascii(",\"budgetMs\":")
        cursor.double(budgetMs)
        cursor.transitionTail(outcome: outcome, handlerFailed: handlerFailed, wallMs: wallMs, scene: scene)
    }
}

extension JournaledTransition {
    /// Appends the record's JSON text (no newline): the bytes `record.write(to:)` appends, its times written from
    /// their whole nanoseconds (`JSONCursor.milliseconds(nanoseconds:)`), no double made.
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: writtenBound) { write(to: &$0) }
    }

    /// `TransitionRecord.writtenBound` of the same record.
    var writtenBound: Int {
        JSONCursor.transitionBound(app: app, cause: hasCause ? storedCause : nil, scene: scene != nil)
    }

    func write(to cursor: inout JSONCursor) {
        let start = cursor.position
        defer { assert(cursor.position - start <= writtenBound, "JournaledTransition.writtenBound is too small") }
        cursor.transitionHead(seq: seq, app: app, pid: pid, callback: callback, cause: hasCause ? storedCause : nil,
                              from: from, to: to)
        cursor.ascii(",\"firedMs\":")
        cursor.optionalMilliseconds(nanoseconds: firedNs)
        cursor.ascii(",\"sentMs\":")
        cursor.milliseconds(nanoseconds: sentNs)
        cursor.ascii(",\"answeredMs\":")
        cursor.optionalMilliseconds(nanoseconds: answeredNs)
        cursor.ascii(",\"handlerMs\":")
        cursor.optionalMilliseconds(nanoseconds: handlerNs)
        cursor.ascii(",\"budgetMs\":")
        cursor.milliseconds(nanoseconds: budgetNs)
        cursor.transitionTail(outcome: outcome, handlerFailed: handlerFailed, wallMs: wallMs, scene: scene)
    }
}

/// What a transition record's two writers share (`TransitionRecord`: its times as doubles; `JournaledTransition`:
/// as whole nanoseconds): everything but the five times, which sit between `to` and `outcome`.
extension JSONCursor {
    /// The most bytes a transition record's text takes: the keys and punctuation (180 bytes), eight numbers (`seq`,
    /// `pid`, five milliseconds, `wallMs`), four names, the app and the cause; a scene record's members add 48 bytes
    /// of keys, two numbers and two names.
    static func transitionBound(app: String, cause: EventCause?, scene: Bool) -> Int {
        192 + 8 * numberBound + 4 * nameBound + stringBound(app) + EventCause.writtenBound(cause)
            + (scene ? 48 + 2 * numberBound + 2 * nameBound : 0)
    }

    /// From `{` through the `to` member.
    @inline(__always)
    mutating func transitionHead(
        seq: Int64, app: String, pid: Int32?, callback: LifecycleCallback?, cause: EventCause?,
        from: LifecycleState, to: LifecycleState
    ) {
        ascii("{\"type\":\"transition\",\"seq\":")
        integer(seq)
        ascii(",\"app\":")
        string(app)
        ascii(",\"pid\":")
        optionalInteger(pid.map(Int64.init))
        ascii(",\"callback\":")
        if let callback { name(callback.quotedJSON) } else { null() }
        ascii(",\"cause\":")
        if let cause { cause.write(to: &self) } else { null() }
        ascii(",\"from\":")
        name(from.quotedJSON)
        ascii(",\"to\":")
        name(to.quotedJSON)
    }

    /// From the `outcome` member through `}`: a scene transition's members after `wallMs`.
    @inline(__always)
    mutating func transitionTail(
        outcome: TransitionOutcome, handlerFailed: Bool, wallMs: Int64, scene: TransitionScene?
    ) {
        ascii(",\"outcome\":")
        name(outcome.quotedJSON)
        ascii(handlerFailed ? ",\"handlerFailed\":true" : ",\"handlerFailed\":false")
        ascii(",\"wallMs\":")
        integer(wallMs)
        if let scene {
            ascii(",\"scene\":")
            integer(Int64(scene.scene.number))
            ascii(",\"session\":")
            integer(Int64(scene.session.number))
            ascii(",\"sceneFrom\":")
            name(scene.from.quotedJSON)
            ascii(",\"sceneTo\":")
            name(scene.to.quotedJSON)
        }
        byte(UInt8(ascii: "}"))
    }
}

extension EventCause {
    /// Appends `{"eventID":…,"event":…}`.
    public func write(to buffer: inout [UInt8]) {
        withText { buffer.append(contentsOf: $0) }
    }

    /// The most bytes `write` needs for `cause` (`null` when absent): its text's length.
    static func writtenBound(_ cause: EventCause?) -> Int {
        cause?.textCount ?? 4
    }

    /// The most bytes the text of a cause labelled `event` takes: keys (21 bytes), a number, the label.
    static func writtenBound(event: String) -> Int {
        24 + JSONCursor.numberBound + JSONCursor.stringBound(event)
    }

    /// Copies the text written when the value was made.
    func write(to cursor: inout JSONCursor) {
        withText { cursor.bytes($0) }
    }
}

extension MarkRecord {
    /// Appends the record's JSON text (no newline).
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: headBound) { cursor in
            cursor.ascii("{\"type\":\"mark\",\"seq\":")
            cursor.integer(seq)
            cursor.ascii(",\"app\":")
            cursor.string(app)
            cursor.ascii(",\"pid\":")
            cursor.optionalInteger(pid.map(Int64.init))
            cursor.ascii(",\"name\":")
            cursor.string(name)
            cursor.ascii(",\"data\":")
        }
        if let data { data.write(to: &buffer) } else { JSONWriter.appendASCII("null", to: &buffer) }
        JSONWriter.append(to: &buffer, atMost: Self.tailBound) { cursor in
            cursor.ascii(",\"atMs\":")
            cursor.double(atMs)
            cursor.ascii(",\"wallMs\":")
            cursor.integer(wallMs)
            cursor.byte(UInt8(ascii: "}"))
        }
    }

    /// The most bytes the text before `data`'s value takes: keys (51 bytes), two numbers, the app and the name.
    var headBound: Int {
        56 + 2 * JSONCursor.numberBound + JSONCursor.stringBound(app) + JSONCursor.stringBound(name)
    }

    /// The most bytes the text after `data`'s value takes: keys (19 bytes) and two numbers.
    static let tailBound = 24 + 2 * JSONCursor.numberBound
}

extension JournalEntry {
    /// Appends the entry's JSON text (no newline).
    public func write(to buffer: inout [UInt8]) {
        switch self {
        case .transition(let record): record.write(to: &buffer)
        case .mark(let record): record.write(to: &buffer)
        case .run(let record): record.json.write(to: &buffer)  // one per run or file: no direct writer needed
        case .process(let record): record.json.write(to: &buffer)  // rare: no direct writer needed
        case .task(let record): record.json.write(to: &buffer)  // rare: no direct writer needed
        case .push(let record): record.json.write(to: &buffer)
        case .protectedData(let record): record.json.write(to: &buffer)
        }
    }
}

extension FireResult {
    /// Appends the result's JSON text: the head, each record, the tail.
    public func write(to buffer: inout [UInt8]) {
        Self.writeHead(eventID: eventID, event: event, completed: completed, to: &buffer)
        JSONWriter.append(to: &buffer, atMost: recordsBound) { cursor in
            for (position, record) in transitions.enumerated() {
                if position > 0 { cursor.byte(UInt8(ascii: ",")) }
                record.write(to: &cursor)
            }
            cursor.ascii(noApp ? "],\"noApp\":true}" : "],\"noApp\":false}")
        }
    }

    /// The most bytes the records and the tail take: each record with its comma, and the tail's keys and
    /// punctuation (16 bytes).
    var recordsBound: Int {
        16 + transitions.reduce(0) { $0 + $1.writtenBound + 1 }
    }

    /// The most bytes `writeHead` takes: keys and punctuation (54 bytes), a number, the label.
    static func headBound(event: String) -> Int {
        64 + JSONCursor.numberBound + JSONCursor.stringBound(event)
    }

    /// Appends the text before the records: `{"eventID":…,"event":…,"completed":…,"transitions":[`.
    static func writeHead(eventID: Int64, event: String, completed: Bool, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: headBound(event: event)) { cursor in
            cursor.ascii("{\"eventID\":")
            cursor.integer(eventID)
            cursor.ascii(",\"event\":")
            cursor.string(event)
            cursor.ascii(completed ? ",\"completed\":true" : ",\"completed\":false")
            cursor.ascii(",\"transitions\":[")
        }
    }

    /// Appends the text after the records: `],"noApp":…}`.
    static func writeTail(noApp: Bool, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: noApp ? #"],"noApp":true}"#.utf8 : #"],"noApp":false}"#.utf8)
    }
}

extension PingResult {
    /// Appends the result's JSON text: `{"pong":true,"brokerTime":…}`.
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: Self.writtenBound) { cursor in
            cursor.ascii("{\"pong\":true,\"brokerTime\":")
            cursor.integer(brokerTime)
            cursor.byte(UInt8(ascii: "}"))
        }
    }

    /// The most bytes `write` takes: keys and punctuation (27 bytes) and a number.
    static let writtenBound = 32 + JSONCursor.numberBound
}

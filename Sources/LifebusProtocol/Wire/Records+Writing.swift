/// Direct writers for the records and answers the broker emits most (every transition goes to the journal and, in
/// a `fire` answer, to the controller; every `ping` is answered): they write the same text as `json.write(to:)`,
/// member for member, without building a `JSONValue` tree first, through one cursor over room reserved once per
/// record. `RecordWritingTests` pins the equality.
extension TransitionRecord {
    /// Appends the record's JSON text (no newline).
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: writtenBound) { write(to: &$0) }
    }

    /// The most bytes `write` needs: the keys and punctuation (180 bytes), seven numbers, four names, the app and
    /// the cause.
    var writtenBound: Int {
        192 + 7 * JSONCursor.numberBound + 4 * JSONCursor.nameBound + JSONCursor.stringBound(app)
            + EventCause.writtenBound(hasCause ? storedCause : nil)
    }

    func write(to cursor: inout JSONCursor) {
        cursor.ascii("{\"type\":\"transition\",\"seq\":")
        cursor.integer(seq)
        cursor.ascii(",\"app\":")
        cursor.string(app)
        cursor.ascii(",\"pid\":")
        cursor.optionalInteger(pid.map(Int64.init))
        cursor.ascii(",\"callback\":")
        if let callback { cursor.name(callback.quotedJSON) } else { cursor.null() }
        cursor.ascii(",\"cause\":")
        if hasCause { storedCause.write(to: &cursor) } else { cursor.null() }
        cursor.ascii(",\"from\":")
        cursor.name(from.quotedJSON)
        cursor.ascii(",\"to\":")
        cursor.name(to.quotedJSON)
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
        cursor.ascii(",\"outcome\":")
        cursor.name(outcome.quotedJSON)
        cursor.ascii(handlerFailed ? ",\"handlerFailed\":true" : ",\"handlerFailed\":false")
        cursor.ascii(",\"wallMs\":")
        cursor.integer(wallMs)
        cursor.byte(UInt8(ascii: "}"))
    }
}

extension EventCause {
    /// Appends `{"eventID":…,"event":…}`.
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer, atMost: Self.writtenBound(self)) { write(to: &$0) }
    }

    /// The most bytes `write` needs for `cause` (`null` when absent): keys (21 bytes), a number, the label.
    static func writtenBound(_ cause: EventCause?) -> Int {
        guard let cause else { return 4 }
        return 24 + JSONCursor.numberBound + JSONCursor.stringBound(cause.event)
    }

    func write(to cursor: inout JSONCursor) {
        cursor.ascii("{\"eventID\":")
        cursor.integer(eventID)
        cursor.ascii(",\"event\":")
        cursor.string(event)
        cursor.byte(UInt8(ascii: "}"))
    }
}

extension MarkRecord {
    /// Appends the record's JSON text (no newline).
    public func write(to buffer: inout [UInt8]) {
        // Keys before `data` (51 bytes), two numbers, the app and the name.
        let headBound = 56 + 2 * JSONCursor.numberBound + JSONCursor.stringBound(app) + JSONCursor.stringBound(name)
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
        // Keys after `data` (19 bytes) and two numbers.
        JSONWriter.append(to: &buffer, atMost: 24 + 2 * JSONCursor.numberBound) { cursor in
            cursor.ascii(",\"atMs\":")
            cursor.double(atMs)
            cursor.ascii(",\"wallMs\":")
            cursor.integer(wallMs)
            cursor.byte(UInt8(ascii: "}"))
        }
    }
}

extension JournalEntry {
    /// Appends the entry's JSON text (no newline).
    public func write(to buffer: inout [UInt8]) {
        switch self {
        case .transition(let record): record.write(to: &buffer)
        case .mark(let record): record.write(to: &buffer)
        case .run(let record): record.json.write(to: &buffer)  // one per run or file: no direct writer needed
        case .process(let record): record.json.write(to: &buffer)  // rare: no direct writer needed
        }
    }
}

extension FireResult {
    /// Appends the result's JSON text: the head, each record, the tail.
    public func write(to buffer: inout [UInt8]) {
        Self.writeHead(eventID: eventID, event: event, completed: completed, to: &buffer)
        // Each record with its comma, and the tail's keys and punctuation (16 bytes).
        JSONWriter.append(to: &buffer, atMost: 16 + transitions.reduce(0) { $0 + $1.writtenBound + 1 }) { cursor in
            for (position, record) in transitions.enumerated() {
                if position > 0 { cursor.byte(UInt8(ascii: ",")) }
                record.write(to: &cursor)
            }
            cursor.ascii(noApp ? "],\"noApp\":true}" : "],\"noApp\":false}")
        }
    }

    /// Appends the text before the records: `{"eventID":…,"event":…,"completed":…,"transitions":[`.
    static func writeHead(eventID: Int64, event: String, completed: Bool, to buffer: inout [UInt8]) {
        // Keys and punctuation (54 bytes), a number, the label.
        JSONWriter.append(to: &buffer, atMost: 64 + JSONCursor.numberBound + JSONCursor.stringBound(event)) { cursor in
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
        JSONWriter.append(to: &buffer, atMost: 32 + JSONCursor.numberBound) { cursor in
            cursor.ascii("{\"pong\":true,\"brokerTime\":")
            cursor.integer(brokerTime)
            cursor.byte(UInt8(ascii: "}"))
        }
    }
}

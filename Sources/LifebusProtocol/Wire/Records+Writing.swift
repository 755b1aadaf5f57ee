/// Direct writers for the records the broker emits most (every transition goes to the journal and, in a `fire`
/// answer, to the controller): they write the same text as `json.write(to:)`, member for member, without building
/// a `JSONValue` tree first. `RecordWritingTests` pins the equality.
extension TransitionRecord {
    /// Appends the record's JSON text (no newline).
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"transition\",\"seq\":", to: &buffer)
        JSONWriter.writeInteger(seq, to: &buffer)
        JSONWriter.appendASCII(",\"app\":", to: &buffer)
        JSONWriter.writeString(app, to: &buffer)
        JSONWriter.appendASCII(",\"pid\":", to: &buffer)
        JSONWriter.writeOptionalInteger(pid.map(Int64.init), to: &buffer)
        JSONWriter.appendASCII(",\"callback\":", to: &buffer)
        if let callback {
            JSONWriter.writeString(callback.rawValue, to: &buffer)
        } else {
            JSONWriter.appendNull(to: &buffer)
        }
        JSONWriter.appendASCII(",\"cause\":", to: &buffer)
        if let cause { cause.write(to: &buffer) } else { JSONWriter.appendNull(to: &buffer) }
        JSONWriter.appendASCII(",\"from\":", to: &buffer)
        JSONWriter.writeString(from.rawValue, to: &buffer)
        JSONWriter.appendASCII(",\"to\":", to: &buffer)
        JSONWriter.writeString(to.rawValue, to: &buffer)
        JSONWriter.appendASCII(",\"firedMs\":", to: &buffer)
        JSONWriter.writeOptionalDouble(firedMs, to: &buffer)
        JSONWriter.appendASCII(",\"sentMs\":", to: &buffer)
        JSONWriter.writeDouble(sentMs, to: &buffer)
        JSONWriter.appendASCII(",\"answeredMs\":", to: &buffer)
        JSONWriter.writeOptionalDouble(answeredMs, to: &buffer)
        JSONWriter.appendASCII(",\"handlerMs\":", to: &buffer)
        JSONWriter.writeOptionalDouble(handlerMs, to: &buffer)
        JSONWriter.appendASCII(",\"budgetMs\":", to: &buffer)
        JSONWriter.writeDouble(budgetMs, to: &buffer)
        JSONWriter.appendASCII(",\"outcome\":", to: &buffer)
        JSONWriter.writeString(outcome.rawValue, to: &buffer)
        JSONWriter.appendASCII(handlerFailed ? ",\"handlerFailed\":true" : ",\"handlerFailed\":false", to: &buffer)
        JSONWriter.appendASCII(",\"wallMs\":", to: &buffer)
        JSONWriter.writeInteger(wallMs, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }
}

extension EventCause {
    /// Appends `{"eventID":…,"event":…}`.
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.appendASCII("{\"eventID\":", to: &buffer)
        JSONWriter.writeInteger(eventID, to: &buffer)
        JSONWriter.appendASCII(",\"event\":", to: &buffer)
        JSONWriter.writeString(event, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }
}

extension MarkRecord {
    /// Appends the record's JSON text (no newline).
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"mark\",\"seq\":", to: &buffer)
        JSONWriter.writeInteger(seq, to: &buffer)
        JSONWriter.appendASCII(",\"app\":", to: &buffer)
        JSONWriter.writeString(app, to: &buffer)
        JSONWriter.appendASCII(",\"pid\":", to: &buffer)
        JSONWriter.writeOptionalInteger(pid.map(Int64.init), to: &buffer)
        JSONWriter.appendASCII(",\"name\":", to: &buffer)
        JSONWriter.writeString(name, to: &buffer)
        JSONWriter.appendASCII(",\"data\":", to: &buffer)
        if let data { data.write(to: &buffer) } else { JSONWriter.appendNull(to: &buffer) }
        JSONWriter.appendASCII(",\"atMs\":", to: &buffer)
        JSONWriter.writeDouble(atMs, to: &buffer)
        JSONWriter.appendASCII(",\"wallMs\":", to: &buffer)
        JSONWriter.writeInteger(wallMs, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
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
    /// Appends the result's JSON text.
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.appendASCII("{\"eventID\":", to: &buffer)
        JSONWriter.writeInteger(eventID, to: &buffer)
        JSONWriter.appendASCII(",\"event\":", to: &buffer)
        JSONWriter.writeString(event, to: &buffer)
        JSONWriter.appendASCII(completed ? ",\"completed\":true" : ",\"completed\":false", to: &buffer)
        JSONWriter.appendASCII(",\"transitions\":[", to: &buffer)
        if let transitionsText {
            // One allocation of the final size (an answer for 1,000 apps is ~350 KB: doubling would hold 1.5×).
            buffer.reserveCapacity(buffer.count + transitionsText.count + 64)
            buffer.append(contentsOf: transitionsText)
        } else {
            for (position, record) in transitions.enumerated() {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                record.write(to: &buffer)
            }
        }
        JSONWriter.appendASCII(noApp ? "],\"noApp\":true}" : "],\"noApp\":false}", to: &buffer)
    }
}

extension JSONWriter {
    static func appendNull(to buffer: inout [UInt8]) {
        appendASCII("null", to: &buffer)
    }

    static func writeOptionalInteger(_ value: Int64?, to buffer: inout [UInt8]) {
        if let value { writeInteger(value, to: &buffer) } else { appendNull(to: &buffer) }
    }

    static func writeOptionalDouble(_ value: Double?, to buffer: inout [UInt8]) {
        if let value { writeDouble(value, to: &buffer) } else { appendNull(to: &buffer) }
    }
}

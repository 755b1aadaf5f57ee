/// The direct writer of the request the broker sends most (one per app per event): the same text as
/// `json.write(to:)`, member for member, without building a `JSONValue` tree first. `RecordWritingTests` pins the
/// equality.
extension CallbackParams {
    /// Appends the params' JSON text.
    public func write(to buffer: inout [UInt8]) {
        JSONWriter.appendASCII("{\"callbackID\":", to: &buffer)
        JSONWriter.writeInteger(callbackID, to: &buffer)
        JSONWriter.appendASCII(",\"callback\":", to: &buffer)
        JSONWriter.writeString(callback.rawValue, to: &buffer)
        JSONWriter.appendASCII(",\"state\":", to: &buffer)
        JSONWriter.writeString(state.rawValue, to: &buffer)
        JSONWriter.appendASCII(",\"budgetMs\":", to: &buffer)
        JSONWriter.writeDouble(budgetMs, to: &buffer)
        JSONWriter.appendASCII(",\"cause\":", to: &buffer)
        if let cause { cause.write(to: &buffer) } else { JSONWriter.appendNull(to: &buffer) }
        if let launch {
            JSONWriter.appendASCII(",\"launch\":", to: &buffer)
            launch.json().write(to: &buffer)  // once per launch: no direct writer needed
        }
        buffer.append(UInt8(ascii: "}"))
    }
}

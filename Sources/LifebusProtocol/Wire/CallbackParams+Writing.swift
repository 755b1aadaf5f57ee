@_spi(RawJSON) import LifebusJSON

/// The direct writer of the request the broker sends most (one per app per event): the same text as
/// `json.write(to:)`, member for member, without building a `JSONValue` tree first. `RecordWritingTests` pins the
/// equality.
extension CallbackParams {
    /// Appends the whole callback request, `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`: the method is the
    /// params' callback, copied from its constant.
    public func writeRequest(id: RPCID, to buffer: inout [UInt8]) {
        RPCCodec.encodeRequest(id: id, quotedMethod: callback.quotedJSON, to: &buffer) { write(to: &$0) }
    }

    /// Appends the params' JSON text.
    public func write(to buffer: inout [UInt8]) {
        let rare = hasRareMembers
        JSONWriter.append(to: &buffer, atMost: headBound) { cursor in
            cursor.ascii("{\"callbackID\":")
            cursor.integer(callbackID)
            cursor.ascii(",\"callback\":")
            cursor.name(callback.quotedJSON)
            cursor.ascii(",\"state\":")
            cursor.name(state.quotedJSON)
            cursor.ascii(",\"budgetMs\":")
            cursor.double(budgetMs)
            cursor.ascii(",\"cause\":")
            if let cause { cause.write(to: &cursor) } else { cursor.null() }
            if !rare { cursor.byte(UInt8(ascii: "}")) }
        }
        guard rare else { return }
        writeRareMembers(to: &buffer)
    }

    /// `launch`, the scene members and the background ones, then `}`: rare (a launch, a scene app's callback, a
    /// background one), kept out of `write` so that the app-level request's writer stays small enough to inline.
    @inline(never)
    private func writeRareMembers(to buffer: inout [UInt8]) {
        if let launch {
            JSONWriter.appendASCII(",\"launch\":", to: &buffer)
            launch.json().write(to: &buffer)  // once per launch: no direct writer needed
        }
        // Scene members through the general writer: a scene callback writes a few more members than an app's, and
        // its payloads are texts read from peers; the app-level callbacks above stay on the direct writer.
        if let scene {
            for (key, value) in scene.members { Self.appendMember(key, value, to: &buffer) }
        }
        if !sessions.isEmpty {
            Self.appendMember("sessions", .array(sessions.map { .integer(Int64($0.number)) }), to: &buffer)
        }
        if let background {
            for (key, value) in background.members { Self.appendMember(key, value, to: &buffer) }
        }
        buffer.append(UInt8(ascii: "}"))
    }

    private static func appendMember(_ key: String, _ value: JSONValue, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: ","))
        JSONValue.string(key).write(to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        value.write(to: &buffer)
    }

    /// The most bytes the text before `launch` takes (the whole text without one): keys and punctuation (57
    /// bytes), two numbers, two names and the cause.
    var headBound: Int {
        64 + 2 * JSONCursor.numberBound + 2 * JSONCursor.nameBound + EventCause.writtenBound(cause)
    }
}

import CLibUV

extension Connection {
    /// The "\n" every line ends with, for `uv_buf_t`s that need a mutable pointer.
    nonisolated(unsafe) private static let newline: UnsafeMutablePointer<CChar> = {  // only ever read, by libuv
        let byte = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        byte.initialize(to: 0x0A)
        return byte
    }()

    /// Sends `bytes` followed by "\n". `bytes` must not contain "\n". Ignored once the connection is closing.
    public func writeLine(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeLine($0) }
    }

    /// Encodes a line with `encode` into the loop's line buffer (one for all its connections) and sends it as
    /// `writeLine(_:)` does.
    public func writeLine(encoding encode: (inout [UInt8]) -> Void) {
        writeLine(encoding: { line in
            encode(&line)
            return line.count
        }, splicing: [])
    }

    /// `writeLine(encoding:)` with `body` sent at the offset into the line that `encode` returns, as
    /// `writeLine(_:splicing:at:)` sends it. The "\n" goes into the line buffer after what `encode` wrote, so the
    /// kernel gathers one part fewer (one `writev` segment less: about 50 ns of system time a line, measured on a
    /// Unix socket).
    public func writeLine(encoding encode: (inout [UInt8]) -> Int, splicing body: [UInt8]) {
        var line = loop.takeLineBuffer()
        let offset = encode(&line)
        line.append(0x0A)
        line.withUnsafeBytes { bytes in
            body.withUnsafeBytes { bodyBytes in
                writeLine(bytes, splicing: bodyBytes, holding: body.count >= Self.heldBodyMinimum ? body : nil,
                          at: offset, endsWithNewline: true)
            }
        }
        loop.keepLineBuffer(line)
    }

    /// Sends `bytes` followed by "\n": tries a direct write first; whatever the kernel did not take is copied
    /// into a write request that owns it until its write callback. `bytes` must not contain "\n".
    /// Ignored once the connection is closing. A write failure ends the connection with `.error` (after the lines
    /// already received are delivered); a line over the output cap ends it with `.outputLimitExceeded`.
    public func writeLine(_ bytes: UnsafeRawBufferPointer) {
        writeLine(bytes, splicing: UnsafeRawBufferPointer(start: nil, count: 0), holding: nil, at: bytes.count,
                  endsWithNewline: false)
    }

    /// Sends `bytes[..<offset]`, then `body`, then `bytes[offset...]`, then "\n", as `writeLine(_:)` sends one
    /// buffer: the kernel gathers the parts (one `writev`), so a large body made elsewhere (a `fire` answer's
    /// records) is never copied into the line; what the kernel does not take of a large body at once is sent from
    /// the array itself, which the queued write holds until its callback (a copy of the array's value: the
    /// caller may go on changing its own). None of the parts may contain "\n".
    public func writeLine(_ bytes: UnsafeRawBufferPointer, splicing body: [UInt8], at offset: Int) {
        body.withUnsafeBytes { bodyBytes in
            writeLine(bytes, splicing: bodyBytes, holding: body.count >= Self.heldBodyMinimum ? body : nil, at: offset,
                      endsWithNewline: false)
        }
    }

    /// The smallest body a queued write sends from its array rather than from a copy.
    static let heldBodyMinimum = 4096

    /// The one write path: `body` is `owner`'s bytes when an owner is given (then a queued write holds it);
    /// `endsWithNewline`: `bytes` ends with the line's "\n" already (else one is sent after it).
    private func writeLine(
        _ bytes: UnsafeRawBufferPointer, splicing body: UnsafeRawBufferPointer, holding owner: [UInt8]?,
        at offset: Int, endsWithNewline: Bool
    ) {
        loop.preconditionInLoop()
        precondition(offset >= 0 && offset <= bytes.count, "the splice offset is outside the line")
        guard hot.state == .open, hot.writeFailure == nil else { return }
        let parts = LineParts(head: UnsafeRawBufferPointer(rebasing: bytes[..<offset]), body: body,
                              tail: UnsafeRawBufferPointer(rebasing: bytes[offset...]), addsNewline: !endsWithNewline)
        guard outputCapAllows(parts.count) else {
            outputCapExceeded()
            return
        }
        let status = withUnsafeTemporaryAllocation(of: uv_buf_t.self, capacity: 4) { buffers in
            var used = 0
            func add(_ part: UnsafeRawBufferPointer) {
                guard !part.isEmpty else { return }
                let base = UnsafeMutableRawPointer(mutating: part.baseAddress)?.assumingMemoryBound(to: CChar.self)
                buffers.initializeElement(at: used, to: uv_buf_t(base: base, len: part.count))
                used += 1
            }
            if parts.body.isEmpty {
                add(bytes)  // the head and the tail, one run of bytes
            } else {
                add(parts.head)
                add(parts.body)
                add(parts.tail)
            }
            if parts.addsNewline {
                buffers.initializeElement(at: used, to: uv_buf_t(base: Connection.newline, len: 1))
                used += 1
            }
            return uv_try_write(stream, buffers.baseAddress, UInt32(used))
        }
        var sent = 0
        if status >= 0 {
            sent = Int(status)
            if sent == parts.count { return }
        } else if status != UV_EAGAIN.rawValue {
            writeFailed(UVError(code: status, function: "uv_try_write"))
            return
        }
        if let owner, sent < parts.head.count + parts.body.count {
            queueWrite(parts, skipping: sent, sendingBodyFrom: owner)
        } else {
            queueWrite(parts, skipping: sent)
        }
    }

    /// Copies what `uv_try_write` left of the line into one allocation holding the request and the bytes.
    private func queueWrite(_ parts: LineParts, skipping sent: Int) {
        let remaining = parts.count - sent
        let memory = WriteRequest.allocate(copying: remaining, holding: nil)
        parts.copy(skipping: sent, to: memory.payload)
        var buffer = uv_buf_t(base: memory.payload.assumingMemoryBound(to: CChar.self), len: remaining)
        submit(memory.request, &buffer, count: 1)
    }

    /// Queues what `uv_try_write` left of a line whose body the kernel did not take whole: the rest of the head and
    /// the tail are copied, the rest of the body is sent from `owner`'s storage, which the request holds.
    private func queueWrite(_ parts: LineParts, skipping sent: Int, sendingBodyFrom owner: [UInt8]) {
        let head = UnsafeRawBufferPointer(rebasing: parts.head[min(sent, parts.head.count)...])
        let body = UnsafeRawBufferPointer(rebasing: parts.body[max(sent - parts.head.count, 0)...])
        let copied = LineParts(head: head, body: UnsafeRawBufferPointer(start: nil, count: 0), tail: parts.tail,
                               addsNewline: parts.addsNewline)
        let memory = WriteRequest.allocate(copying: copied.count, holding: owner)
        copied.copy(skipping: 0, to: memory.payload)  // the head's rest, then the tail and the "\n"
        let payload = memory.payload.assumingMemoryBound(to: CChar.self)
        let bodyBase = UnsafeMutableRawPointer(mutating: body.baseAddress)?.assumingMemoryBound(to: CChar.self)
        var buffers = (uv_buf_t(base: payload, len: head.count), uv_buf_t(base: bodyBase, len: body.count),
                       uv_buf_t(base: payload + head.count, len: copied.count - head.count))
        withUnsafeMutablePointer(to: &buffers) { tuple in
            tuple.withMemoryRebound(to: uv_buf_t.self, capacity: 3) { list in
                // An empty head's buffer is skipped; the body's is never empty here (`sent` stopped inside it).
                head.isEmpty ? submit(memory.request, list + 1, count: 2) : submit(memory.request, list, count: 3)
            }
        }
    }

    /// Hands a filled request to libuv (which copies the buffer list), or frees it and fails the connection.
    private func submit(_ request: UnsafeMutablePointer<uv_write_t>, _ buffers: UnsafePointer<uv_buf_t>, count: Int) {
        let status = uv_write(request, stream, buffers, UInt32(count)) { request, status in
            WriteRequest.completed(request!, status)
        }
        if status < 0 {
            WriteRequest.free(request)
            writeFailed(UVError(code: status, function: "uv_write"))
            return
        }
        writeQueued()
    }
}

/// The pieces of one outgoing line, in order, and the "\n" that ends it (borrowed: valid during the write call):
/// the tail's last byte, or one sent after the tail (`addsNewline`).
struct LineParts {
    let head: UnsafeRawBufferPointer
    let body: UnsafeRawBufferPointer
    let tail: UnsafeRawBufferPointer
    let addsNewline: Bool

    /// Bytes in the line, its "\n" included.
    var count: Int { head.count + body.count + tail.count + (addsNewline ? 1 : 0) }

    /// Copies the line's bytes after its first `skipped` to `destination` (room for `count - skipped` bytes).
    func copy(skipping skipped: Int, to destination: UnsafeMutableRawPointer) {
        var skip = skipped
        var position = destination
        func copy(_ part: UnsafeRawBufferPointer) {
            guard skip < part.count, let base = part.baseAddress else {
                skip -= min(skip, part.count)
                return
            }
            position.copyMemory(from: base + skip, byteCount: part.count - skip)
            position += part.count - skip
            skip = 0
        }
        copy(head)
        copy(body)
        copy(tail)
        if addsNewline { position.storeBytes(of: 0x0A, as: UInt8.self) }
    }
}

/// A queued write: one allocation holding the `uv_write_t`, the array whose bytes it sends from where they are (if
/// any, held until the callback), and the bytes it sends from a copy. It is owned by libuv from `uv_write` until its
/// write callback (which also comes, with `ECANCELED`, when the handle closes); the callback frees it. Bounded by
/// the output cap: the bytes it sends are counted in the stream's write queue; a held array may hold up to the
/// line's body beyond them (the part the kernel took at once).
enum WriteRequest {
    /// Where the held array (`[UInt8]?`) sits: after the request, aligned.
    private static var ownerOffset: Int {
        (MemoryLayout<uv_write_t>.size + 15) / 16 * 16
    }

    private static var headerSize: Int {
        ownerOffset + (MemoryLayout<[UInt8]?>.size + 15) / 16 * 16
    }

    /// A request with room for `count` copied bytes after its header, holding `owner`.
    static func allocate(
        copying count: Int, holding owner: [UInt8]?
    ) -> (request: UnsafeMutablePointer<uv_write_t>, payload: UnsafeMutableRawPointer) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: headerSize + count,
                                                      alignment: MemoryLayout<uv_write_t>.alignment)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: ownerOffset)
        (memory + ownerOffset).initializeMemory(as: [UInt8]?.self, repeating: owner, count: 1)
        return (memory.bindMemory(to: uv_write_t.self, capacity: 1), memory + headerSize)
    }

    /// Releases the held array and frees the request.
    static func free(_ request: UnsafeMutablePointer<uv_write_t>) {
        let memory = UnsafeMutableRawPointer(request)
        (memory + ownerOffset).assumingMemoryBound(to: [UInt8]?.self).deinitialize(count: 1)
        memory.deallocate()
    }

    static func completed(_ request: UnsafeMutablePointer<uv_write_t>, _ status: Int32) {
        let stream = request.pointee.handle!
        free(request)
        // Held: a write callback comes before the handle's close callback.
        let connection = uvOwner(of: stream, as: Connection.self)
        connection.writeCompleted()
        guard status < 0, status != UV_ECANCELED.rawValue else { return }
        connection.writeFailed(UVError(code: status, function: "uv_write"))
    }
}

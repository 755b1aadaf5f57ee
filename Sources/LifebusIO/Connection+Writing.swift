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
        }, splicing: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// `writeLine(encoding:)` with `body` sent at the offset into the line that `encode` returns, as
    /// `writeLine(_:splicing:at:)` sends it.
    public func writeLine(encoding encode: (inout [UInt8]) -> Int, splicing body: UnsafeRawBufferPointer) {
        var line = loop.takeLineBuffer()
        let offset = encode(&line)
        line.withUnsafeBytes { writeLine($0, splicing: body, at: offset) }
        loop.keepLineBuffer(line)
    }

    /// Sends `bytes` followed by "\n": tries a direct write first; whatever the kernel did not take is copied
    /// into a write request that owns it until its write callback. `bytes` must not contain "\n".
    /// Ignored once the connection is closing. A write failure ends the connection with `.error` (after the lines
    /// already received are delivered); a line over the output cap ends it with `.outputLimitExceeded`.
    public func writeLine(_ bytes: UnsafeRawBufferPointer) {
        writeLine(bytes, splicing: UnsafeRawBufferPointer(start: nil, count: 0), at: bytes.count)
    }

    /// Sends `bytes[..<offset]`, then `body`, then `bytes[offset...]`, then "\n", as `writeLine(_:)` sends one
    /// buffer: the kernel gathers the parts (one `writev`), so a large body made elsewhere (a `fire` answer's
    /// records) is never copied into the line. None of the parts may contain "\n".
    public func writeLine(_ bytes: UnsafeRawBufferPointer, splicing body: UnsafeRawBufferPointer, at offset: Int) {
        loop.preconditionInLoop()
        precondition(offset >= 0 && offset <= bytes.count, "the splice offset is outside the line")
        guard state == .open, writeFailure == nil else { return }
        let parts = LineParts(head: UnsafeRawBufferPointer(rebasing: bytes[..<offset]), body: body,
                              tail: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
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
            add(parts.head)
            add(parts.body)
            add(parts.tail)
            buffers.initializeElement(at: used, to: uv_buf_t(base: Connection.newline, len: 1))
            return uv_try_write(stream, buffers.baseAddress, UInt32(used + 1))
        }
        var sent = 0
        if status >= 0 {
            sent = Int(status)
            if sent == parts.count { return }
        } else if status != UV_EAGAIN.rawValue {
            writeFailed(UVError(code: status, function: "uv_try_write"))
            return
        }
        queueWrite(parts, skipping: sent)
    }

    /// Copies what `uv_try_write` left of the line into one allocation holding the request and the bytes.
    private func queueWrite(_ parts: LineParts, skipping sent: Int) {
        let remaining = parts.count - sent
        let headerSize = WriteRequest.headerSize
        let memory = UnsafeMutableRawPointer.allocate(byteCount: headerSize + remaining,
                                                      alignment: MemoryLayout<uv_write_t>.alignment)
        let request = memory.bindMemory(to: uv_write_t.self, capacity: 1)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: headerSize)
        let payload = memory + headerSize
        parts.copy(skipping: sent, to: payload)
        var buffer = uv_buf_t(base: payload.assumingMemoryBound(to: CChar.self), len: remaining)
        let status = uv_write(request, stream, &buffer, 1) { request, status in
            WriteRequest.completed(request!, status)
        }
        if status < 0 {
            memory.deallocate()
            writeFailed(UVError(code: status, function: "uv_write"))
            return
        }
        writeQueued()
    }
}

/// The pieces of one outgoing line, in order, and the "\n" that ends it (borrowed: valid during the write call).
struct LineParts {
    let head: UnsafeRawBufferPointer
    let body: UnsafeRawBufferPointer
    let tail: UnsafeRawBufferPointer

    /// Bytes in the line, its "\n" included.
    var count: Int { head.count + body.count + tail.count + 1 }

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
        position.storeBytes(of: 0x0A, as: UInt8.self)
    }
}

/// A queued write: one allocation holding the `uv_write_t` followed by the bytes it sends. It is owned by libuv
/// from `uv_write` until its write callback (which also comes, with `ECANCELED`, when the handle closes); the
/// callback frees it.
enum WriteRequest {
    static var headerSize: Int {
        let alignment = 16
        return (MemoryLayout<uv_write_t>.size + alignment - 1) / alignment * alignment
    }

    static func completed(_ request: UnsafeMutablePointer<uv_write_t>, _ status: Int32) {
        let stream = request.pointee.handle!
        UnsafeMutableRawPointer(request).deallocate()
        // Held: a write callback comes before the handle's close callback.
        let connection = uvOwner(of: stream, as: Connection.self)
        connection.writeCompleted()
        guard status < 0, status != UV_ECANCELED.rawValue else { return }
        connection.writeFailed(UVError(code: status, function: "uv_write"))
    }
}

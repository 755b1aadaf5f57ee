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

    /// Sends `bytes` followed by "\n": tries a direct write first; whatever the kernel did not take is copied
    /// into a write request that owns it until its write callback. `bytes` must not contain "\n".
    /// Ignored once the connection is closing. A write failure ends the connection with `.error` (after the lines
    /// already received are delivered); a line over the output cap ends it with `.outputLimitExceeded`.
    public func writeLine(_ bytes: UnsafeRawBufferPointer) {
        loop.preconditionInLoop()
        guard state == .open, writeFailure == nil else { return }
        guard outputCapAllows(bytes.count + 1) else {
            outputCapExceeded()
            return
        }
        let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.assumingMemoryBound(to: CChar.self)
        let status = withUnsafeTemporaryAllocation(of: uv_buf_t.self, capacity: 2) { buffers in
            buffers.initialize(repeating: uv_buf_t(base: Connection.newline, len: 1))
            buffers[0] = uv_buf_t(base: base, len: bytes.count)
            return uv_try_write(stream, buffers.baseAddress, 2)
        }
        var sent = 0
        if status >= 0 {
            sent = Int(status)
            if sent == bytes.count + 1 { return }
        } else if status != UV_EAGAIN.rawValue {
            writeFailed(UVError(code: status, function: "uv_try_write"))
            return
        }
        queueWrite(bytes, skipping: sent)
    }

    /// Copies what `uv_try_write` left of `bytes` + "\n" into one allocation holding the request and the bytes.
    private func queueWrite(_ bytes: UnsafeRawBufferPointer, skipping sent: Int) {
        let remaining = bytes.count + 1 - sent
        let headerSize = WriteRequest.headerSize
        let memory = UnsafeMutableRawPointer.allocate(byteCount: headerSize + remaining,
                                                      alignment: MemoryLayout<uv_write_t>.alignment)
        let request = memory.bindMemory(to: uv_write_t.self, capacity: 1)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: headerSize)
        let payload = memory + headerSize
        if sent < bytes.count, let source = bytes.baseAddress {
            payload.copyMemory(from: source + sent, byteCount: bytes.count - sent)
        }
        payload.storeBytes(of: 0x0A, toByteOffset: remaining - 1, as: UInt8.self)
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

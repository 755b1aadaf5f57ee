import CLibUV

extension Connection {
    /// Starts delivering lines. `onLine` gets each complete line without its "\n"; the bytes are valid only during
    /// the call (they point into the loop's read buffer or the framer). `onEnd` is called exactly once, whatever
    /// ends the connection; no line follows it. A line handler may close the connection: the remaining lines of
    /// that read are then dropped. Called at most once; ignored on a connection already closing.
    public func startReading(
        onLine: @escaping (UnsafeRawBufferPointer) -> Void,
        onEnd: @escaping (ConnectionEnd) -> Void
    ) {
        loop.preconditionInLoop()
        precondition(!readStarted, "startReading called twice")
        guard state == .open else { return }
        readStarted = true
        self.onLine = onLine
        self.onEnd = onEnd
        let status = uv_read_start(stream, Connection.allocate, Connection.didRead)
        if status < 0 {
            fail(UVError(code: status, function: "uv_read_start"))
        }
    }

    /// Every connection reads into its loop's one buffer (`loop.data`): reads are consumed before the next one.
    static let allocate: uv_alloc_cb = { handle, _, buffer in
        let loop = handle!.pointee.loop!
        buffer!.pointee = uv_buf_t(base: loop.pointee.data.assumingMemoryBound(to: CChar.self),
                                   len: EventLoop.readBufferSize)
    }

    static let didRead: uv_read_cb = { stream, count, buffer in
        // Unretained: the handle holds the reference until the close callback.
        let connection = Unmanaged<Connection>.fromOpaque(stream!.pointee.data).takeUnretainedValue()
        if count > 0 {
            connection.consume(UnsafeRawBufferPointer(start: buffer!.pointee.base, count: count))
        } else if count < 0 {
            connection.readFailed(Int32(truncatingIfNeeded: count))
        }
    }

    private func consume(_ bytes: UnsafeRawBufferPointer) {
        guard state == .open, !readingFinished, let onLine else { return }
        var offset = 0
        do throws(LineTooLong) {
            while offset < bytes.count, state == .open, !readingFinished {
                let limit = maxLineLength
                framer.maxLineLength = limit
                offset += try framer.feedUntilStopped(UnsafeRawBufferPointer(rebasing: bytes[offset...])) { line in
                    onLine(line)
                    return self.state == .open && !self.readingFinished && self.maxLineLength == limit
                }
            }
        } catch {
            if state == .open, !readingFinished {
                finishReading(.lineTooLong(limit: error.limit))
            }
        }
    }

    private func readFailed(_ status: Int32) {
        guard state == .open, !readingFinished else {
            if state == .shuttingDown, status != UV_EOF.rawValue {
                close()  // draining after closeAfterFlush: the peer is gone, nothing left to flush to
            }
            return
        }
        if status == UV_EOF.rawValue {
            let discarded = framer.bufferedByteCount
            framer.reset()
            finishReading(.endOfStream(discardedPartialLine: discarded))
        } else {
            fail(UVError(code: status, function: "uv_read"))
        }
    }

    /// Stops reading for good and reports `end` now; the connection stays open for the owner to close.
    private func finishReading(_ end: ConnectionEnd) {
        uv_read_stop(stream)
        readingFinished = true
        let onEnd = self.onEnd
        self.onEnd = nil
        self.onLine = nil
        onEnd?(end)
    }
}

import CLibUV

extension Connection {
    /// Starts delivering lines. `onLine` gets each complete line without its "\n"; the bytes are valid only during
    /// the call (they point into the loop's read buffer, the framer or `held`). `onEnd` is called exactly once,
    /// whatever ends the connection; no line follows it. A line handler may close the connection: the remaining
    /// lines of that read are then dropped. Called at most once; ignored on a connection already closing.
    public func startReading(
        onLine: @escaping (UnsafeRawBufferPointer) -> Void,
        onEnd: @escaping (ConnectionEnd) -> Void
    ) {
        loop.preconditionInLoop()
        precondition(!readStarted, "startReading called twice")
        guard hot.state == .open else { return }
        readStarted = true
        self.onLine = onLine
        self.onEnd = onEnd
        updateSocketReading()
    }

    /// Every connection reads into its loop's one buffer (`loop.data`): reads are consumed before the next one.
    static let allocate: uv_alloc_cb = { handle, _, buffer in
        let loop = handle!.pointee.loop!
        buffer!.pointee = uv_buf_t(base: loop.pointee.data.assumingMemoryBound(to: CChar.self),
                                   len: EventLoop.readBufferSize)
    }

    static let didRead: uv_read_cb = { stream, count, buffer in
        let connection = uvOwner(of: stream!, as: Connection.self)
        if count > 0 {
            connection.hasReadBytes = true
            connection.received(UnsafeRawBufferPointer(start: buffer!.pointee.base, count: count))
        } else if count < 0 {
            connection.readFailed(Int32(truncatingIfNeeded: count))
        }
    }

    /// Bytes fresh from the socket (in the loop's shared buffer): delivered up to the turn's budget, the rest held.
    private func received(_ bytes: UnsafeRawBufferPointer) {
        guard hot.state == .open, !hot.readingFinished, onLine != nil else { return }
        if hot.writeFailure != nil {
            drainRemaining -= bytes.count
        }
        let consumed = deliver(bytes)
        if consumed < bytes.count, hot.state == .open, !hot.readingFinished {
            held.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
            heldStart = 0
            updateSocketReading()
            scheduleDelivery()
        }
        endDrainIfDone()
    }

    /// Frames `bytes` and hands out lines while the connection may deliver, at most `maxLinesPerTurn` of them.
    /// Returns how many bytes were used (all of them unless delivery stopped).
    func deliver(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let onLine else { return 0 }
        hot.isDelivering = true
        // The framer is taken out while it hands out lines (the handler reads and writes `hot`), then put back.
        var framer = LineFramer(maxLineLength: 0)
        swap(&framer, &hot.framer)
        defer {
            swap(&framer, &hot.framer)
            hot.isDelivering = false
        }
        var offset = 0
        var budget = maxLinesPerTurn
        do throws(LineTooLong) {
            while offset < bytes.count, budget > 0, mayDeliver {
                let limit = maxLineLength
                framer.maxLineLength = limit
                offset += try framer.feedUntilStopped(UnsafeRawBufferPointer(rebasing: bytes[offset...])) { line in
                    onLine(line)
                    budget -= 1
                    return budget > 0 && self.mayDeliver && self.maxLineLength == limit
                }
            }
        } catch {
            if hot.state == .open, !hot.readingFinished {
                finishReading(.lineTooLong(limit: error.limit))
            }
            return bytes.count
        }
        return offset
    }

    /// Lines may be handed out now: open, reading not finished, not paused (a failed write overrides pauses, as
    /// what was received must be delivered before the end).
    var mayDeliver: Bool {
        hot.state == .open && !hot.readingFinished
            && (hot.writeFailure != nil || (!hot.pausedByOwner && !hot.pausedForOutput))
    }

    private func readFailed(_ status: Int32) {
        guard hot.state == .open, !hot.readingFinished else {
            if hot.state == .shuttingDown, status != UV_EOF.rawValue {
                close()  // draining after closeAfterFlush: the peer is gone, nothing left to flush to
            }
            return
        }
        if let writeFailure = hot.writeFailure {
            fail(writeFailure)
        } else if status == UV_EOF.rawValue {
            let discarded = hot.framer.bufferedByteCount
            hot.framer.reset()
            finishReading(.endOfStream(discardedPartialLine: discarded))
        } else {
            fail(UVError(code: status, function: "uv_read"))
        }
    }

    /// Stops reading for good and reports `end` now; the connection stays open for the owner to close.
    func finishReading(_ end: ConnectionEnd) {
        hot.readingFinished = true
        held = []
        updateSocketReading()
        let onEnd = self.onEnd
        self.onEnd = nil
        self.onLine = nil
        onEnd?(end)
    }
}

import CLibUV

/// Flow control: pausing and resuming delivery, the per-turn line budget, the output cap, stalled writes, and
/// reading what was received before reporting a failed write.
extension Connection {
    /// Stops delivering lines and reading from the socket (`uv_read_stop`) until `resumeReading()`. Lines already
    /// read wait in order. May be called from `onLine`: no further line of that read is delivered.
    public func pauseReading() {
        loop.preconditionInLoop()
        hot.pausedByOwner = true
        updateSocketReading()
    }

    /// Undoes `pauseReading()`: held lines are delivered from the next loop turn on, then the socket is read again.
    public func resumeReading() {
        loop.preconditionInLoop()
        guard hot.pausedByOwner else { return }
        hot.pausedByOwner = false
        resumeDelivery()
    }

    /// Whether the owner paused reading.
    public var isReadingPaused: Bool { hot.pausedByOwner }

    private func resumeDelivery() {
        if heldByteCount > 0 {
            scheduleDelivery()
        } else {
            updateSocketReading()
        }
    }

    var heldByteCount: Int { held.count - heldStart }

    /// Starts or stops `uv_read_start` to match the state: the socket is read while lines may be delivered and
    /// nothing is held. (`closeAfterFlush` reads to discard on its own.)
    func updateSocketReading() {
        guard hot.state == .open else { return }
        let wanted = readStarted && mayDeliver && heldByteCount == 0
        if wanted, !isReadingSocket {
            let status = uv_read_start(stream, Connection.allocate, Connection.didRead)
            guard status == 0 else {
                fail(UVError(code: status, function: "uv_read_start"))
                return
            }
            isReadingSocket = true
        } else if !wanted, isReadingSocket {
            uv_read_stop(stream)
            isReadingSocket = false
        }
    }

    /// Queues the delivery of held bytes for the next loop turn (once).
    func scheduleDelivery() {
        guard !deliveryScheduled, heldByteCount > 0, mayDeliver else { return }
        deliveryScheduled = true
        loop.nextTurn { [self] in
            deliveryScheduled = false
            deliverHeld()
        }
    }

    /// One turn's share of the held bytes; the rest waits for the next turn.
    private func deliverHeld() {
        guard heldByteCount > 0, mayDeliver else { return }
        let bytes = held
        let consumed = bytes.withUnsafeBytes { deliver(UnsafeRawBufferPointer(rebasing: $0[heldStart...])) }
        guard hot.state == .open, !hot.readingFinished else { return }
        heldStart += consumed
        if heldByteCount == 0 {
            held = []
            heldStart = 0
            updateSocketReading()
        } else {
            scheduleDelivery()
        }
        endDrainIfDone()
    }

    // MARK: - A failed write

    /// A write failed (`EPIPE`, `ECONNRESET`, ...). When reading has started and bytes the peer sent are still
    /// unread (held, or in the socket's receive queue), they are read and delivered first; the connection then
    /// ends with `.error(error)`. Otherwise it ends now.
    func writeFailed(_ error: UVError) {
        guard hot.writeFailure == nil else { return }
        guard hot.state == .open, readStarted, !hot.readingFinished else {
            fail(error)
            return
        }
        let unread = unreadByteCount
        guard unread > 0 || heldByteCount > 0 || hot.isDelivering else {
            fail(error)
            return
        }
        hot.writeFailure = error
        drainRemaining = unread
        resumeDelivery()
    }

    /// After a failed write: ends the connection once everything that was unread at the failure is delivered.
    func endDrainIfDone() {
        guard let writeFailure = hot.writeFailure, hot.state == .open, drainRemaining <= 0, heldByteCount == 0 else {
            return
        }
        fail(writeFailure)
    }

    // MARK: - Output accounting

    /// Whether a line of `count` bytes (with its "\n") may be queued under the output cap.
    func outputCapAllows(_ count: Int) -> Bool {
        if hot.queuedWriteCount >= maxPendingWrites { return false }
        let pending = pendingWriteBytes
        return pending == 0 || pending + count <= maxPendingWriteBytes
    }

    /// A write was refused by the output cap: stop taking writes, report the end now (on the next turn, so the
    /// writer is never re-entered), and close once what is queued is written.
    func outputCapExceeded() {
        let onEnd = self.onEnd
        self.onEnd = nil
        self.onLine = nil
        hot.readingFinished = true
        held = []
        closeAfterFlush()
        if let onEnd {
            loop.nextTurn { onEnd(.outputLimitExceeded) }
        }
    }

    /// A write request was queued with libuv.
    func writeQueued() {
        hot.queuedWriteCount += 1
        if !hot.pausedForOutput, pendingWriteBytes > readPauseThreshold || hot.queuedWriteCount > readPauseLines {
            hot.pausedForOutput = true
            updateSocketReading()
        }
        if hot.queuedWriteCount == 1 {
            armStallTimer()
        }
    }

    /// A queued write completed: output progressed.
    func writeCompleted() {
        hot.queuedWriteCount -= 1
        guard hot.state == .open || hot.state == .shuttingDown else { return }
        if hot.queuedWriteCount == 0 {
            stallTimer?.stop()
        } else {
            armStallTimer()
        }
        if hot.pausedForOutput, pendingWriteBytes <= readPauseThreshold / 2,
            hot.queuedWriteCount <= readPauseLines / 2
        {
            hot.pausedForOutput = false
            resumeDelivery()
        }
    }

    /// (Re)starts the stall countdown: it ends the connection unless output progresses within the timeout (a write
    /// completing, or the kernel taking part of a long one).
    private func armStallTimer() {
        guard let timeout = writeStallTimeout else { return }
        if stallTimer == nil {
            stallTimer = try? LoopTimer(loop: loop)
        }
        let pendingAtArm = pendingWriteBytes
        stallTimer?.start(after: timeout) { [unowned self] in
            if pendingWriteBytes < pendingAtArm {
                armStallTimer()
                return
            }
            if endReason == nil { endReason = .writeStalled }
            close()
        }
    }
}

extension Connection {
    /// The fields of a connection that the hot path reads per line or per write: its state, its line framer, the
    /// flags of reading and flow control, the count of queued writes and the limits. Kept together so that one
    /// `@exclusivity(unchecked)` property (`Connection.hot`) holds them, with one reason.
    ///
    /// A plain value owned by one connection, touched only on its loop's thread. Invariant (that reason): no access
    /// to it spans a call. Each field is read or written whole, and `framer`, the one field used across a call, is
    /// taken out while it hands lines to the line handler (`Connection.deliver`), then put back.
    struct HotFields {
        var state = State.connecting
        var framer = LineFramer(maxLineLength: Connection.defaultMaxLineLength)
        /// Lines are no longer delivered (end reported, or reading stopped for good).
        var readingFinished = false
        /// `pauseReading()` was called and `resumeReading()` not yet.
        var pausedByOwner = false
        /// Pending output is above `readPauseThreshold` or `readPauseLines` (and has not drained to half of both
        /// yet).
        var pausedForOutput = false
        /// Lines of a read are being handed out (so bytes received are still unread even if `held` is empty).
        var isDelivering = false
        /// A write failed while received bytes were still unread: they are read and delivered first
        /// (`drainRemaining` more bytes from the socket), then the connection ends with this error.
        var writeFailure: UVError?
        /// Write requests queued with libuv and not yet completed.
        var queuedWriteCount = 0
        /// The public limits (`Connection.maxLineLength` … `maxPendingWrites`; unlimited but the line length).
        var maxLineLength = Connection.defaultMaxLineLength
        var maxLinesPerTurn = Int.max
        var readPauseThreshold = Int.max
        var readPauseLines = Int.max
        var maxPendingWriteBytes = Int.max
        var maxPendingWrites = Int.max
    }
}

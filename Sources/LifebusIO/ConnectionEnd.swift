/// Why a `Connection` stopped delivering lines; handed to its `onEnd` exactly once.
public enum ConnectionEnd: Sendable, Equatable {
    /// The peer closed its side; the bytes of an unterminated last line were dropped. The connection is still
    /// open for writing: the owner calls `close()` or `closeAfterFlush()`.
    case endOfStream(discardedPartialLine: Int)
    /// A line exceeded `maxLineLength`; reading stopped. The connection is still open: the owner may write an
    /// error line and call `closeAfterFlush()`.
    case lineTooLong(limit: Int)
    /// Reading or writing failed; the connection has been closed. (After a failed write, the lines already
    /// received were delivered first.)
    case error(UVError)
    /// A `writeLine` would have exceeded the output cap (`maxPendingWriteBytes`/`maxPendingWrites`); the line was
    /// not sent, nothing more is, and the connection closes once what was queued is written.
    case outputLimitExceeded
    /// Queued output made no progress for `writeStallTimeout`; the connection has been closed.
    case writeStalled
    /// `close()` or `closeAfterFlush()` ended the connection before the peer did.
    case closedLocally
}

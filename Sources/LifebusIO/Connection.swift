import CLibUV
import CLifebusSystem

/// One connected byte stream carrying "\n"-terminated lines: owns a connected `uv_pipe_t` (Unix socket) or
/// `uv_tcp_t`, its `LineFramer` (the bytes of one partial line), the bytes of one read not yet framed (`held`, at
/// most one read chunk, kept while reading is paused or the turn's line budget is spent), the write requests still
/// queued on it, and the timer that ends a stalled write.
///
/// Bound to its loop's thread. From creation until the close callback the connection is retained by its handle,
/// so the owner may drop it at any time; `close()` or `closeAfterFlush()` is how it ends. Invariants: `onEnd` is
/// called exactly once if reading started, and no line is delivered after it; bytes received are delivered in order
/// before any end is reported (also after a failed write); the socket is read only while nothing is held and
/// reading is not paused; every queued write is released by its write callback (with `ECANCELED` on close); the
/// handlers are released in the close callback, which breaks any cycle through them. Reads go into the loop's
/// shared read buffer, so an idle connection costs no read memory.
public final class Connection: UVHandleOwner {
    enum State {
        case connecting
        case open
        /// `closeAfterFlush()`: queued writes drain, then the handle closes.
        case shuttingDown
        case closing
        case closed
    }

    /// The default `maxLineLength`; owners facing untrusted peers lower it before `startReading`.
    public static let defaultMaxLineLength = 1 << 20

    let loop: EventLoop
    let kind: StreamKind
    let handle: UVHandle<uv_stream_t>
    var stream: UnsafeMutablePointer<uv_stream_t> { handle.pointer }
    /// What the hot path reads per line or per write (see `HotFields`).
    // Unchecked: touched only on the loop thread, and no access to it spans a call (each field is read or written
    // whole; the framer is taken out while it hands out lines). The dynamic checks would cost ~20 % of a round trip.
    @exclusivity(unchecked) var hot = HotFields()
    var onLine: ((UnsafeRawBufferPointer) -> Void)?
    /// Non-nil from `startReading` until it has been called.
    var onEnd: ((ConnectionEnd) -> Void)?
    var readStarted = false
    /// What the close callback reports when it delivers `onEnd` (nil: `.closedLocally`).
    var endReason: ConnectionEnd?
    var connectCompletion: ((Result<Connection, UVError>) -> Void)?
    var connectFailure: UVError?

    // Flow control (Connection+Flow.swift).
    /// Whether `uv_read_start` is in effect.
    var isReadingSocket = false
    /// Bytes read from the socket but not framed yet, from `heldStart` on.
    var held: [UInt8] = []
    var heldStart = 0
    /// A next-turn delivery of `held` is queued.
    var deliveryScheduled = false
    var drainRemaining = 0
    /// Ends the connection when queued output makes no progress for `writeStallTimeout`; made on the first queued
    /// write.
    var stallTimer: LoopTimer?
    /// Some bytes were read from the socket.
    var hasReadBytes = false

    /// The kernel-reported identity of the peer (Unix sockets only), read once when the connection opened.
    public private(set) var peerCredentials: PeerCredentials?

    /// The longest accepted line, without its "\n". May change at any time, even from `onLine`: it applies from
    /// the next line on.
    public var maxLineLength: Int {
        get { hot.maxLineLength }
        set { hot.maxLineLength = newValue }
    }

    /// At most this many lines are delivered per loop turn; the rest wait (in `held`) for the next turn, after the
    /// other connections had theirs. Unlimited by default.
    public var maxLinesPerTurn: Int {
        get { hot.maxLinesPerTurn }
        set { hot.maxLinesPerTurn = newValue }
    }

    /// Pending output above which reading pauses, in bytes and in queued lines: reading pauses when either is over
    /// its threshold and resumes once both have drained to half of theirs. Kept below the output cap (a quarter of
    /// it, `ConnectionLimits`), so that a peer that keeps reading never reaches the cap through the answers to what
    /// it sends. Unlimited by default.
    public var readPauseThreshold: Int {
        get { hot.readPauseThreshold }
        set { hot.readPauseThreshold = newValue }
    }
    public var readPauseLines: Int {
        get { hot.readPauseLines }
        set { hot.readPauseLines = newValue }
    }

    /// The output cap: a `writeLine` that would take pending output over `maxPendingWriteBytes` bytes (unless nothing
    /// is pending: one line alone always goes) or `maxPendingWrites` queued lines is refused; the connection then
    /// ends with `.outputLimitExceeded` and closes once what is queued is written. Unlimited by default.
    public var maxPendingWriteBytes: Int {
        get { hot.maxPendingWriteBytes }
        set { hot.maxPendingWriteBytes = newValue }
    }
    public var maxPendingWrites: Int {
        get { hot.maxPendingWrites }
        set { hot.maxPendingWrites = newValue }
    }

    /// Queued output that makes no progress for this long closes the connection at once (`.writeStalled`).
    /// `nil` (the default): no limit.
    public var writeStallTimeout: Duration?

    init(loop: EventLoop, kind: StreamKind) throws(UVError) {
        self.loop = loop
        self.kind = kind
        handle = try kind.makeHandle(on: loop)
        handle.adopt(self)
    }

    deinit {
        assert(hot.state == .closed, "Connection released before its close callback")
    }

    /// Whether `close()` or `closeAfterFlush()` was called or the connection failed: no more writes are sent.
    public var isClosed: Bool {
        hot.state != .open || hot.writeFailure != nil
    }

    /// Whether the connection is gone for good (its close callback has run).
    public var hasClosed: Bool { hot.state == .closed }

    /// Whether any byte was read from the peer.
    public var hasReceivedBytes: Bool { hasReadBytes }

    /// Bytes the peer sent that wait in the socket's receive queue (`FIONREAD`; a system call), 0 once closed.
    public var unreadByteCount: Int {
        guard let descriptor = fileDescriptor else { return 0 }
        return Int(max(0, lifebus_unread_bytes(descriptor)))
    }

    /// Bytes accepted by `writeLine` that the kernel has not taken yet.
    public var pendingWriteBytes: Int {
        switch hot.state {
        case .open, .shuttingDown: uv_stream_get_write_queue_size(stream)
        case .connecting, .closing, .closed: 0
        }
    }

    /// The socket's file descriptor while the connection is open.
    public var fileDescriptor: Int32? {
        guard hot.state == .open || hot.state == .shuttingDown else { return nil }
        var descriptor: uv_os_fd_t = -1
        return uv_fileno(uvCast(stream), &descriptor) == 0 ? descriptor : nil
    }

    /// Called once the stream is connected (accepted or connect completed).
    func didOpen() {
        hot.state = .open
        guard kind == .pipe, let descriptor = fileDescriptor else { return }
        var credentials = lifebus_peer_credentials()
        if lifebus_get_peer_credentials(descriptor, &credentials) == 0 {
            peerCredentials = PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
        }
    }
}

// MARK: - Closing

extension Connection {
    /// Closes at once: reading stops, queued writes are cancelled (and released), and `onEnd(.closedLocally)` is
    /// delivered from the close callback if reading had started and had not ended yet. Idempotent.
    public func close() {
        loop.preconditionInLoop()
        switch hot.state {
        case .closing, .closed:
            return
        case .connecting, .open, .shuttingDown:
            hot.state = .closing
            stallTimer?.close()
            stallTimer = nil
            handle.close()
        }
    }

    /// Sends everything queued, shuts the write side down, then closes. Incoming bytes are read and discarded
    /// meanwhile (so the peer is not reset while it still reads), and no line is delivered any more.
    /// A peer that never reads keeps it waiting: pair it with a timer and `close()`.
    public func closeAfterFlush() {
        loop.preconditionInLoop()
        guard hot.state == .open else { return }
        hot.state = .shuttingDown
        if readStarted, !isReadingSocket {
            isReadingSocket = uv_read_start(stream, Connection.allocate, Connection.didRead) == 0
        }
        let request = uvAllocate(uv_shutdown_t.self)
        let status = uv_shutdown(request, stream) { request, _ in
            let stream = request!.pointee.handle!
            uvFree(request!)
            let connection = uvOwner(of: stream, as: Connection.self)
            if connection.hot.state == .shuttingDown {
                connection.close()
            }
        }
        if status < 0 {
            uvFree(request)
            close()
        }
    }

    /// Ends the connection because of a failure: `onEnd(.error)` (unless an end was already reported) and close.
    func fail(_ error: UVError) {
        if endReason == nil {
            endReason = .error(error)
        }
        close()
    }

    static var closeCallback: uv_close_cb { { uvHandleClosed($0, as: Connection.self) } }

    /// The close callback (through `UVHandle`): the end is reported, a pending connect fails.
    func handleDidClose() {
        hot.state = .closed
        let onEnd = onEnd
        let completion = connectCompletion
        self.onEnd = nil
        onLine = nil
        connectCompletion = nil
        hot.readingFinished = true
        held = []
        if let completion {
            completion(.failure(connectFailure ?? UVError(UV_ECANCELED, function: "uv_connect")))
        }
        onEnd?(endReason ?? .closedLocally)
    }
}

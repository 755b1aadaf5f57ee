import CLibUV
import Glibc

/// A listening socket: owns a listening `uv_pipe_t` (Unix socket, mode 0600) or `uv_tcp_t` (loopback only) and
/// hands each accepted `Connection` to `onConnection`, on the loop's thread.
///
/// Bound to its loop's thread; retained by its handle from `listen` until the close callback, so it listens until
/// `close()` even if the caller drops it. It never probes or removes a socket path before binding: deciding about
/// a stale file is the caller's business. libuv removes the file it bound when the listener closes (also when
/// `listen` fails after binding) unless `keepsSocketFile` (then removing it is the caller's business too: by then
/// the path may hold another process's socket). Failed accepts are skipped (at the descriptor limit libuv's
/// reserve-descriptor trick closes the waiting connections, so there is no busy loop). At most `maxAcceptsPerTurn`
/// connections are accepted per loop turn: past it the listener is not polled (libuv keeps the one it had) until the
/// next turn, so the peers already accepted are read between bursts.
public final class Listener: UVHandleOwner {
    private let loop: EventLoop
    private let kind: StreamKind
    private let handle: UVHandle<uv_stream_t>
    private var stream: UnsafeMutablePointer<uv_stream_t> { handle.pointer }
    private var onConnection: ((Connection) -> Void)?
    private var acceptedThisTurn = 0
    /// libuv holds a connection we did not accept (the turn's budget was spent); it stops polling until we do.
    private var acceptDeferred = false

    /// Connections accepted per loop turn at most. Unlimited by default.
    public var maxAcceptsPerTurn = Int.max

    /// Where the listener listens; for TCP port 0, with the port the kernel chose.
    public private(set) var boundAddress: SocketAddress

    private init(loop: EventLoop, address: SocketAddress, onConnection: @escaping (Connection) -> Void)
        throws(UVError)
    {
        self.loop = loop
        self.kind = StreamKind(address)
        self.boundAddress = address
        self.onConnection = onConnection
        handle = try kind.makeHandle(on: loop)
        handle.adopt(self)
    }

    /// Binds and listens. A Unix path is bound, then chmod'ed to 0600, then listened on (nobody can connect
    /// before `listen`, so there is no window with looser permissions). Throws `EADDRINUSE` when the path or port
    /// is taken, `ENAMETOOLONG` for a path longer than `sun_path`, `EADDRNOTAVAIL` for a non-loopback TCP host.
    public static func listen(
        on address: SocketAddress,
        loop: EventLoop,
        backlog: Int32 = 511,
        keepsSocketFile: Bool = false,
        onConnection: @escaping (Connection) -> Void
    ) throws(UVError) -> Listener {
        loop.preconditionInLoop()
        let listener = try Listener(loop: loop, address: address, onConnection: onConnection)
        do throws(UVError) {
            switch address {
            case .unix(let path):
                try listener.bindUnix(path: path, keepsSocketFile: keepsSocketFile)
            case .tcp(let host, let port):
                try listener.bindTCP(host: host, port: port)
            }
            try UVError.check(uv_listen(listener.stream, backlog) { server, status in
                Listener.connectionArrived(server!, status)
            }, "uv_listen")
        } catch {
            listener.close()
            throw error
        }
        return listener
    }

    /// Stops listening and closes the handle; no further connections arrive, and libuv removes a Unix socket file
    /// it bound. Connections already accepted are unaffected. Idempotent.
    public func close() {
        loop.preconditionInLoop()
        handle.close()
    }

    static var closeCallback: uv_close_cb { { uvHandleClosed($0, as: Listener.self) } }

    func handleDidClose() {
        onConnection = nil
    }

    private func bindUnix(path: String, keepsSocketFile: Bool) throws(UVError) {
        try SocketAddress.checkUnixPath(path, function: "uv_pipe_bind")
        try UVError.check(uv_pipe_bind(uvCast(stream), path), "uv_pipe_bind")
        if keepsSocketFile {
            // libuv unlinks `pipe_fname` when the handle closes, whatever is at the path by then; forgetting the name
            // (libuv strdup'ed it with the default allocator, malloc) leaves the file to the caller.
            let pipe: UnsafeMutablePointer<uv_pipe_t> = uvCast(stream)
            free(UnsafeMutableRawPointer(mutating: pipe.pointee.pipe_fname))
            pipe.pointee.pipe_fname = nil
        }
        if chmod(path, 0o600) != 0 {
            throw UVError(code: -errno, function: "chmod")
        }
    }

    private func bindTCP(host: String, port: Int) throws(UVError) {
        let status = try SocketAddress.withLoopbackAddress(host: host, port: port, function: "uv_tcp_bind") {
            uv_tcp_bind(uvCast(stream), $0, 0)
        }
        try UVError.check(status, "uv_tcp_bind")
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let nameStatus = withUnsafeMutablePointer(to: &storage) {
            uv_tcp_getsockname(uvCast(stream), uvCast($0), &length)
        }
        try UVError.check(nameStatus, "uv_tcp_getsockname")
        let family = Int32(storage.ss_family)
        let boundPort: UInt16 = withUnsafePointer(to: &storage) { pointer in
            let raw = UnsafeRawPointer(pointer)
            if family == AF_INET6 {
                return UInt16(bigEndian: raw.assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_port)
            }
            return UInt16(bigEndian: raw.assumingMemoryBound(to: sockaddr_in.self).pointee.sin_port)
        }
        boundAddress = .tcp(host: host, port: Int(boundPort))
    }

    private static func connectionArrived(_ server: UnsafeMutablePointer<uv_stream_t>, _ status: Int32) {
        let listener = uvOwner(of: server, as: Listener.self)
        guard status == 0, !listener.handle.isClosing else { return }
        guard listener.acceptedThisTurn < listener.maxAcceptsPerTurn else {
            listener.acceptDeferred = true
            return
        }
        listener.acceptOne()
    }

    /// Accepts the connection libuv holds and hands it out; starts the turn's count on the first of a turn.
    private func acceptOne() {
        guard let onConnection else { return }
        if acceptedThisTurn == 0 {
            loop.nextTurn { [self] in
                acceptedThisTurn = 0
                if acceptDeferred, !handle.isClosing {
                    acceptDeferred = false
                    acceptOne()
                }
            }
        }
        acceptedThisTurn += 1
        let connection: Connection
        do throws(UVError) {
            connection = try Connection(loop: loop, kind: kind)
        } catch {
            return
        }
        guard uv_accept(stream, connection.stream) == 0 else {
            connection.close()
            return
        }
        connection.didOpen()
        onConnection(connection)
    }
}

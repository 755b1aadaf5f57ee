import CLibUV

/// Which libuv stream type backs a `Listener` or `Connection`.
enum StreamKind {
    case pipe
    case tcp

    init(_ address: SocketAddress) {
        switch address {
        case .unix: self = .pipe
        case .tcp: self = .tcp
        }
    }

    /// Allocates and initialises a `uv_pipe_t` or `uv_tcp_t`, seen as its `uv_stream_t` prefix.
    /// On failure nothing is left to close or free.
    func makeHandle(on loop: EventLoop) throws(UVError) -> UVHandle<uv_stream_t> {
        switch self {
        case .pipe: try UVHandle(uv_pipe_t.self, "uv_pipe_init") { uv_pipe_init(loop.loop, $0, 0) }
        case .tcp: try UVHandle(uv_tcp_t.self, "uv_tcp_init") { uv_tcp_init(loop.loop, $0) }
        }
    }
}

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
    /// On failure nothing is left to close or free. Free with `uvFree` in the close callback.
    func makeHandle(on loop: EventLoop) throws(UVError) -> UnsafeMutablePointer<uv_stream_t> {
        switch self {
        case .pipe:
            let pipe = uvAllocate(uv_pipe_t.self)
            let status = uv_pipe_init(loop.loop, pipe, 0)
            guard status == 0 else {
                uvFree(pipe)
                throw UVError(code: status, function: "uv_pipe_init")
            }
            return uvCast(pipe)
        case .tcp:
            let tcp = uvAllocate(uv_tcp_t.self)
            let status = uv_tcp_init(loop.loop, tcp)
            guard status == 0 else {
                uvFree(tcp)
                throw UVError(code: status, function: "uv_tcp_init")
            }
            return uvCast(tcp)
        }
    }
}

import CLibUV

extension Connection {
    /// Connects to `address`. `completion` runs on the loop's thread, always after `connect` has returned, with
    /// the open connection (its `peerCredentials` read) or the failure (`ENOENT` for a missing socket path,
    /// `ECONNREFUSED` for nobody listening, `ENAMETOOLONG`, `EADDRNOTAVAIL` for a non-loopback TCP host, ...).
    public static func connect(
        to address: SocketAddress,
        loop: EventLoop,
        completion: @escaping (Result<Connection, UVError>) -> Void
    ) {
        loop.preconditionInLoop()
        let connection: Connection
        do throws(UVError) {
            connection = try Connection(loop: loop, kind: StreamKind(address))
        } catch {
            let executor = loop.executor
            // No handle exists to carry the failure; defer it through the executor to keep the "after" promise.
            let deferred = LoopBound(completion, loop: loop)
            executor.execute { deferred.value(.failure(error)) }
            return
        }
        connection.connectCompletion = completion
        let request = uvAllocate(uv_connect_t.self)
        do throws(UVError) {
            switch address {
            case .unix(let path):
                try SocketAddress.checkUnixPath(path, function: "uv_pipe_connect")
                uv_pipe_connect(request, uvCast(connection.stream), path) { request, status in
                    Connection.didConnect(request!, status, function: "uv_pipe_connect")
                }
            case .tcp(let host, let port):
                let status = try SocketAddress.withLoopbackAddress(host: host, port: port, function: "uv_tcp_connect") {
                    uv_tcp_connect(request, uvCast(connection.stream), $0) { request, status in
                        Connection.didConnect(request!, status, function: "uv_tcp_connect")
                    }
                }
                try UVError.check(status, "uv_tcp_connect")
            }
        } catch {
            uvFree(request)
            connection.failConnect(error)
        }
    }

    /// Reports the failure from the close callback (so the completion never runs inside `connect`).
    private func failConnect(_ error: UVError) {
        connectFailure = error
        close()
    }

    private static func didConnect(_ request: UnsafeMutablePointer<uv_connect_t>, _ status: Int32, function: String) {
        let stream = request.pointee.handle!
        uvFree(request)
        let connection = uvOwner(of: stream, as: Connection.self)
        guard connection.hot.state == .connecting else { return }
        guard status == 0 else {
            connection.failConnect(UVError(code: status, function: function))
            return
        }
        connection.didOpen()
        let completion = connection.connectCompletion
        connection.connectCompletion = nil
        completion?(.success(connection))
    }
}

import LifebusProtocol
import LifebusRPC
import Logging

/// What keeps loopback TCP from being a way around the Unix socket's 0600: a TCP peer must present the token from
/// the 0600 file `SOCKET.token` in `hello`, and a connection whose first line looks like HTTP (a web page's `fetch`
/// to 127.0.0.1) is closed before any of its lines is answered or obeyed.
extension Broker {
    /// The request-line openings of HTTP/1.x methods.
    static let httpMethodOpenings: [[UInt8]] = [
        "GET ", "POST ", "PUT ", "OPTIONS ", "HEAD ", "DELETE ", "CONNECT ", "PATCH ", "TRACE ", "PRI ",
    ].map { Array($0.utf8) }

    /// Whether `line` opens like an HTTP request (a method, a space).
    static func looksLikeHTTP(_ line: UnsafeRawBufferPointer) -> Bool {
        httpMethodOpenings.contains { opening in
            line.count >= opening.count && zip(line, opening).allSatisfy { $0 == $1 }
        }
    }

    /// Marks the session as a TCP peer (its `hello` needs the token) and screens its first line: HTTP closes the
    /// connection at once, unanswered.
    func screenTCP(_ session: PeerSession) {
        session.overTCP = true
        session.rpc.screen = { [unowned self, unowned session] line in
            session.rpc.screen = nil
            guard Self.looksLikeHTTP(line) else { return true }
            self.logger.notice("closed a TCP connection that spoke HTTP", metadata: session.metadata)
            return false
        }
    }

    /// `nil` when the peer may say hello: any Unix-socket peer, or a TCP peer presenting the token.
    func refusal(ofTCPHello params: HelloParams, from session: PeerSession) -> RPCError? {
        guard session.overTCP else { return nil }
        if let tcpToken, tcpToken.matches(params.token) { return nil }
        let reason = params.token == nil ? "presented no token" : "presented a wrong token"
        let file = TCPToken.path(besideSocket: configuration.socketPath)
        return RPCError(.unauthorized, "a TCP peer must present the token in \(file); this one \(reason)")
    }
}

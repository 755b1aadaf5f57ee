import LifebusBrokerMachine
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

    /// Screens a TCP peer's first line: HTTP closes the connection at once, unanswered (its `hello` needs the
    /// token: the machine checks that).
    func screenTCP(_ rpc: RPCPeer, session: SessionID) {
        rpc.screen = { [unowned self, unowned rpc] line in
            rpc.screen = nil
            guard Self.looksLikeHTTP(line) else { return true }
            self.logger.notice("closed a TCP connection that spoke HTTP",
                               metadata: ["lifebus.peer.session": "\(session)"])
            return false
        }
    }
}

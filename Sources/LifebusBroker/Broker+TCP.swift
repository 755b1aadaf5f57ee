import LifebusBrokerMachine
import LifebusRPC
import Logging

/// What keeps loopback TCP from being a way around the Unix socket's 0600: a TCP peer must present the token from
/// the 0600 file `SOCKET.token` in `hello`, and a connection whose first line is not a JSON object or array (HTTP
/// from a web page's `fetch` to 127.0.0.1, in any case or version, or any other protocol) is closed before any of
/// its lines is answered or obeyed.
extension Broker {
    /// Whether `line` can open a JSON-RPC conversation: its first byte after JSON's whitespace (space, tab, CR) is
    /// `{` (a message) or `[` (a batch). Anything else — a request line of any protocol, a number, a string,
    /// binary — is not a peer of ours.
    static func opensLikeJSONRPC(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Screens a TCP peer's first line: one that is not a JSON object or array closes the connection at once,
    /// unanswered (its `hello` needs the token: the machine checks that).
    func screenTCP(_ rpc: RPCPeer, session: SessionID) {
        rpc.screen = { [unowned self, unowned rpc] line in
            rpc.screen = nil
            guard !Self.opensLikeJSONRPC(line) else { return true }
            self.logger.notice("closed a TCP connection whose first line is not a JSON object or array",
                               metadata: ["lifebus.peer.session": "\(session)"])
            return false
        }
    }
}

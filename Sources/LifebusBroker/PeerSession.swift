import LifebusCore
import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// One connected peer as the broker sees it: its JSON-RPC endpoint, what the kernel says it is, and how far it has
/// introduced itself.
///
/// Bound to the broker's loop. Invariants: `identity` comes from `SO_PEERCRED`, never from anything the peer sent;
/// the hello timer exists only while the peer has not said `hello`.
final class PeerSession {
    enum Phase {
        case awaitingHello
        case introduced(PeerRole)
    }

    let number: UInt64
    let rpc: RPCPeer
    let identity: PeerIdentity
    var phase: Phase = .awaitingHello
    var helloTimer: LoopTimer?
    /// The app this connection is, once an app said hello.
    var appID: AppID?
    /// Whether the peer came over loopback TCP (it must present the token in `hello`).
    var overTCP = false
    /// Messages received while unintroduced (bounded by `ConnectionLimits.maxMessagesBeforeHello`).
    var messagesBeforeHello = 0
    /// Bytes from the peer were waiting when it was accepted (its `hello`, usually).
    var spokeAtAccept = false

    /// Not a byte from the peer yet: the kind of unintroduced peer the pre-hello caps bound.
    var isSilent: Bool {
        !spokeAtAccept && !rpc.connection.hasReceivedBytes
    }

    init(number: UInt64, rpc: RPCPeer) {
        self.number = number
        self.rpc = rpc
        let credentials = rpc.connection.peerCredentials
        self.identity = PeerIdentity(
            pid: credentials?.pid ?? 0,
            uid: credentials?.uid ?? 0,
            gid: credentials?.gid ?? 0
        )
    }

    var role: PeerRole? {
        if case .introduced(let role) = phase { return role }
        return nil
    }

    func stopHelloTimer() {
        helloTimer?.close()
        helloTimer = nil
    }
}

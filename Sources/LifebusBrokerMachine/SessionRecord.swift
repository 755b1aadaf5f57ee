import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// One admitted connection as the broker machine sees it: what the kernel says it is and how far it has introduced
/// itself.
///
/// A value inside the machine, from admission until the connection ends. Invariants: `identity` comes from
/// `SO_PEERCRED`, never from anything the peer sent; `role` is set once, by a successful `hello`, and the hello
/// deadline is armed exactly while it is `nil`; `app` is set only for an app that is the live connection of its id.
struct SessionRecord {
    let identity: PeerIdentity
    /// Whether the peer came over loopback TCP (it must present the token in `hello`).
    let overTCP: Bool
    var role: PeerRole?
    /// The app this connection is, once an app said hello.
    var app: AppID?
    /// Messages received while unintroduced (bounded by `MachineSettings.maxMessagesBeforeHello`).
    var messagesBeforeHello = 0

    init(identity: PeerIdentity, overTCP: Bool) {
        self.identity = identity
        self.overTCP = overTCP
    }
}

/// An admitted session that has not said `hello`, as admission weighs it: its uid and whether any byte has come from
/// it (a peer that has not spoken is "silent", what the pre-hello caps bound). Kept inline in connection order, so
/// making room for a newcomer hashes nothing.
struct Newcomer {
    let session: SessionID
    let uid: UInt32
    var hasSpoken: Bool
}

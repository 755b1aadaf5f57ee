/// The broker's bounds on connections and on what one connection may make it hold: a value inside
/// `BrokerConfiguration`, each member documented with its default in `Protocol/README.md` ("Limits").
///
/// Invariant (checked by `lifebusd`'s options, assumed here): every count and size is at least 1.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections at once; past it the oldest unintroduced one goes, or, with none, the newcomer is told
    /// `lifebus.LimitExceeded` (`connections`) and closed. The broker also keeps this below its descriptor limit.
    public var maxConnections = 1024
    /// Silent connections (no `hello`, not a byte yet), in all; a new one closes the oldest.
    public var maxConnectionsBeforeHello = 64
    /// Silent connections of one uid; a new one closes that uid's oldest.
    public var maxConnectionsBeforeHelloPerUID = 8
    /// Messages a connection may send before its `hello` succeeds (the `hello` included); past it the connection
    /// is told `lifebus.LimitExceeded` (`messagesBeforeHello`) and closed.
    public var maxMessagesBeforeHello = 16
    /// Pending output per introduced connection, in bytes and in lines; a peer over it is disconnected once what is
    /// queued is written. Reading pauses at a quarter of either (`readPauseThreshold`), so a peer that keeps
    /// reading reaches the cap only through output it did not ask for (an observer's notifications, what
    /// `lifebus watch` follows) coming faster than it reads — the slow consumer — or through answers in flight
    /// that are of the largest kinds (`Protocol/README.md` §15.1, "The flow rule").
    public var maxOutputBytes = 4 * 1024 * 1024
    /// The line cap is 4,096 so that reading pauses at 1,024 queued answers: a client that writes a burst of a
    /// thousand requests before it reads a line is served whole (beyond that, it must read while it writes).
    public var maxOutputMessages = 4096
    /// Pending output per connection before `hello`.
    public var maxOutputBytesBeforeHello = 64 * 1024
    /// Pending output that makes no progress for this long closes the connection.
    public var writeStallTimeout: Duration = .seconds(10)
    /// Requests a peer may leave unanswered before the broker stops reading from it.
    public var maxUnansweredRequests = 64
    /// Lines handled per connection per loop turn; the rest wait their turn after the other peers.
    public var maxLinesPerTurn = 16
    /// Connections accepted per loop turn, so a burst of connections cannot hold up the peers already in.
    public var maxAcceptsPerTurn = 64

    public init() {}

    /// Reading pauses while pending output is above this (a quarter of the cap, in bytes or in lines) and resumes
    /// at half of it.
    static func readPauseThreshold(forOutputCap amount: Int) -> Int {
        max(1, amount / 4)
    }
}

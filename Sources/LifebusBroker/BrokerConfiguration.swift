/// Everything `lifebusd` is told at start. A value; the broker copies it and never changes it.
public struct BrokerConfiguration: Sendable {
    /// The Unix socket path the broker listens on (created with mode 0600).
    public var socketPath: String
    /// A loopback TCP port to listen on as well (0 picks one), or `nil` for none.
    public var tcpPort: Int?
    /// How long a new connection may stay silent before it must have said `hello`.
    public var helloTimeout: Duration
    /// The longest line accepted before `hello` (a stranger gets little).
    public var maxLineLengthBeforeHello: Int
    /// The longest line accepted after `hello`.
    public var maxLineLength: Int
    /// How long a stop waits for peers to take what was written to them before it closes them regardless.
    public var shutdownGrace: Duration

    public init(
        socketPath: String,
        tcpPort: Int? = nil,
        helloTimeout: Duration = .seconds(5),
        maxLineLengthBeforeHello: Int = 4 * 1024,
        maxLineLength: Int = 1024 * 1024,
        shutdownGrace: Duration = .seconds(2)
    ) {
        self.socketPath = socketPath
        self.tcpPort = tcpPort
        self.helloTimeout = helloTimeout
        self.maxLineLengthBeforeHello = maxLineLengthBeforeHello
        self.maxLineLength = maxLineLength
        self.shutdownGrace = shutdownGrace
    }
}

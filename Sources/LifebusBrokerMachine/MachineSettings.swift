public import LifebusCore
import LifebusLifecycle
public import LifebusProtocol

/// What the broker machine is told at start: the device it plays and the rules of admission. A value, never
/// changed after start; the driver derives it from `BrokerConfiguration`.
///
/// Invariant (checked by `lifebusd`'s options, assumed here): every count is at least 1.
public struct MachineSettings: Sendable {
    /// The lifecycle machine's configuration (profile, budgets, watchdog).
    public var device: DeviceConfiguration
    /// How long a new connection may stay without `hello`.
    public var helloTimeout: Duration
    /// Connections at once (`ConnectionLimits.maxConnections`, lowered to fit the descriptor limit).
    public var connectionCap: Int
    /// Silent connections (no `hello`, not a byte yet), in all, and of one uid.
    public var maxConnectionsBeforeHello: Int
    public var maxConnectionsBeforeHelloPerUID: Int
    /// Messages a connection may send before its `hello` succeeds (the `hello` included).
    public var maxMessagesBeforeHello: Int
    /// Whether answers and notifications wait for the loop turn's journal commit (`--journal-sync`).
    public var journalSyncs: Bool
    /// The secret a TCP peer presents in `hello` (the contents of `tcpTokenPath`), when the broker listens on TCP.
    public var tcpToken: [UInt8]?
    /// Where the token is, for the error a TCP peer without it gets.
    public var tcpTokenPath: String
    /// The clock the lifecycle runs on (`--clock`); transport deadlines are on real time under both.
    public var clock: ClockKind
    /// How long, in real time, an `advance` waits for outstanding callbacks before it steps on regardless.
    public var advanceSettleLimit: Duration
    /// Freeze (SIGSTOP) each spawned app while it is suspended, thaw it before it resumes.
    public var freezesSuspended = false
    /// How often the driver samples the apps' resident memory (`--memory-sample`; `nil`: never). Under the manual
    /// clock the period is virtual: the machine asks for each sample (`takeMemorySampleRequest`) as an `advance`
    /// passes its instant (`VirtualSampling`).
    public var memorySamplePeriod: Duration?
    /// The broker's own process id: an app connected from inside it (the in-process fuzzer's) is never killed or
    /// held by pid. 0 when the machine runs in no broker process (tests).
    public var brokerPid: Int32 = 0

    public init(
        device: DeviceConfiguration,
        helloTimeout: Duration = .seconds(5),
        connectionCap: Int = 1024,
        maxConnectionsBeforeHello: Int = 64,
        maxConnectionsBeforeHelloPerUID: Int = 8,
        maxMessagesBeforeHello: Int = 16,
        journalSyncs: Bool = false,
        tcpToken: [UInt8]? = nil,
        tcpTokenPath: String = "",
        clock: ClockKind = .real,
        advanceSettleLimit: Duration = .seconds(5)
    ) {
        self.device = device
        self.helloTimeout = helloTimeout
        self.connectionCap = connectionCap
        self.maxConnectionsBeforeHello = maxConnectionsBeforeHello
        self.maxConnectionsBeforeHelloPerUID = maxConnectionsBeforeHelloPerUID
        self.maxMessagesBeforeHello = maxMessagesBeforeHello
        self.journalSyncs = journalSyncs
        self.tcpToken = tcpToken
        self.tcpTokenPath = tcpTokenPath
        self.clock = clock
        self.advanceSettleLimit = advanceSettleLimit
    }

    /// Whether `presented` is the TCP token, compared in constant time.
    func tokenMatches(_ presented: String?) -> Bool {
        guard let tcpToken, let presented else { return false }
        let bytes = Array(presented.utf8)
        guard bytes.count == tcpToken.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(bytes, tcpToken) { difference |= left ^ right }
        return difference == 0
    }
}

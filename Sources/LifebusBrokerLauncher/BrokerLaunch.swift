public import LifebusIO

/// What to start as a private `lifebusd` and how patiently: the program (found beside the running executable or on
/// `PATH` unless given), the arguments after the ones the launch always passes (`--socket`, `--journal`,
/// `--exit-with-parent PID`), the name the temporary folder starts with, where the broker's standard output goes,
/// the environment it gets, and whether its apps get a fresh state folder. A plain value; `BrokerProcess` starts one.
public struct BrokerLaunch: Sendable {
    /// Where the broker's standard output (its "listening on" line) goes. Its standard error stays the caller's.
    public enum Output: Sendable {
        /// To the caller's standard error, so the caller's standard output stays its own (MCP, a run's report).
        case standardError
        /// To `/dev/null`.
        case discarded
    }

    /// The broker program; `nil`: `lifebusd` beside the running executable, else the first on `PATH`.
    public var program: String?
    /// The arguments after `--socket S --journal J --exit-with-parent PID` (e.g. `--clock manual --profile ios4`).
    public var arguments: [String]
    /// The temporary folder is `/tmp/PURPOSE.XXXXXX`.
    public var purpose: String
    public var output: Output
    /// The broker's whole environment (and the `PATH` it is looked up on).
    public var environment: [String: String]
    /// How long the broker may take to accept connections.
    public var startLimit: Duration
    /// How long a stopped broker may take to exit before it is killed.
    public var stopGrace: Duration
    /// Gives the broker, and so every app it starts (a child's environment is the broker's under its manifest's),
    /// `LIFEBUS_STATE_DIR` naming an empty `state` folder in the temporary folder, removed with it: the SDK's state
    /// files (`StateFile`) start empty, as after a fresh install, and nothing one run saves reaches another.
    public var freshAppState: Bool

    public init(
        program: String? = nil, arguments: [String] = [], purpose: String, output: Output = .standardError,
        environment: [String: String] = ProcessEnvironment.current, startLimit: Duration = .seconds(10),
        stopGrace: Duration = .seconds(3), freshAppState: Bool = false
    ) {
        self.program = program
        self.arguments = arguments
        self.purpose = purpose
        self.output = output
        self.environment = environment
        self.startLimit = startLimit
        self.stopGrace = stopGrace
        self.freshAppState = freshAppState
    }
}

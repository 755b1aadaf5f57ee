import Glibc
import LifebusCore
public import LifebusLifecycle
import LifebusBrokerMachine
import LifebusJournal
public import LifebusProtocol
public import LifebusContainment

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
    /// The device model the broker plays (`ios7` unless told otherwise).
    public var profile: Profile
    /// Multiplies every budget: 0.01 makes `willTerminate`'s 5 s budget 50 ms, for fast tests.
    public var timeScale: Double
    /// Where every transition and mark is appended as one JSON line, or `nil` for no journal file.
    public var journalPath: String?
    /// The per-user folder in a shared temporary folder (`BrokerSocketPath.privateDirectory`): when the socket or the
    /// journal lies in it, the broker creates it 0700 and refuses to start unless it is a real directory of its own
    /// (`PrivateDirectory`).
    public var privateDirectory: String?
    /// Callback budgets set one by one (`lifebusd --budget CALLBACK=DUR`); they replace the profile's budget
    /// exactly and are not scaled by `timeScale`.
    public var budgetOverrides: [LifecycleCallback: Duration] = [:]
    /// The seed of the scene orders Apple does not document (`lifebusd --scene-order-seed N`, 0 … 2^63 − 1; the run
    /// record names it).
    public var sceneOrderSeed: UInt64 = 0
    /// `false`: the watchdog only observes (`lifebusd --watchdog observe`): overruns are journaled `late`, nobody
    /// is killed.
    public var enforcesWatchdog = true
    /// The connection and flow limits (`Protocol/README.md`, "Limits").
    public var limits = ConnectionLimits()
    /// Rotate the journal file once it holds this many bytes (`nil`: never); see `JournalFile.rotate()`.
    public var journalMaxBytes: Int? = BrokerConfiguration.defaultJournalMaxBytes
    /// fdatasync(2) the journal before a controller is answered or an observer told (`--journal-sync`).
    public var journalSyncs = false
    /// The clock the lifecycle runs on (`--clock`): real, or manual (virtual time moved by `advance`).
    public var clock = ClockKind.real
    /// How long an `advance` waits, in real time, for outstanding callbacks before stepping on (`--advance-settle`).
    public var advanceSettleLimit: Duration = .seconds(5)
    /// The folder of manifests installed at start (`lifebusd --apps DIR`), or `nil`.
    public var appsFolder: String?
    /// Resident-memory sampling and pressure (`MemorySettings`).
    public var memory = MemorySettings()
    /// SIGSTOP spawned apps while they are suspended (`--freeze-suspended`).
    public var freezesSuspended = false
    /// How an incoming call shows on an unlocked device from `ios15` (`--call-presentation`).
    public var callPresentation = CallPresentation.fullScreen
    /// The device's power and network at start (`--power`, `--network`).
    public var conditions = DeviceConditions()
    /// The device knobs given over the profile's (`--protected-data-notifications`, `--tasks-after-force-quit`,
    /// `--background-launch-scene`).
    public var knobs = DeviceKnobs()
    /// How spawned apps are contained, whole tree (Protocol §16.2); `nil`: their process group only (a broker
    /// hosted in another program, which must not become a subreaper).
    public var containment: ContainmentSettings?

    public init(
        socketPath: String,
        tcpPort: Int? = nil,
        helloTimeout: Duration = .seconds(5),
        maxLineLengthBeforeHello: Int = 4 * 1024,
        maxLineLength: Int = 1024 * 1024,
        shutdownGrace: Duration = .seconds(2),
        profile: Profile = .ios7,
        timeScale: Double = 1,
        journalPath: String? = nil,
        privateDirectory: String? = nil
    ) {
        self.socketPath = socketPath
        self.tcpPort = tcpPort
        self.helloTimeout = helloTimeout
        self.maxLineLengthBeforeHello = maxLineLengthBeforeHello
        self.maxLineLength = maxLineLength
        self.shutdownGrace = shutdownGrace
        self.profile = profile
        self.timeScale = timeScale
        self.journalPath = journalPath
        self.privateDirectory = privateDirectory
    }

    /// The default journal: `$XDG_STATE_HOME/lifebus/journal.jsonl`, else `journal.jsonl` in the private folder
    /// (`/tmp/lifebus-$UID/journal.jsonl`).
    public static func defaultJournalPath(environment: [String: String], uid: UInt32) -> String {
        BrokerJournalPath.resolve(environment: environment, uid: uid)
    }

    /// The default journal size cap: 64 MiB.
    public static let defaultJournalMaxBytes = 64 * 1024 * 1024

    var journalSettings: JournalSettings {
        JournalSettings(path: journalPath, maxBytes: journalMaxBytes, syncs: journalSyncs)
    }

    /// What the broker machine is told: the device, the hello timeout and the admission bounds.
    func machineSettings(connectionCap: Int, tcpToken: [UInt8]?) -> MachineSettings {
        var settings = MachineSettings(
            device: deviceConfiguration,
            helloTimeout: helloTimeout,
            connectionCap: connectionCap,
            maxConnectionsBeforeHello: limits.maxConnectionsBeforeHello,
            maxConnectionsBeforeHelloPerUID: limits.maxConnectionsBeforeHelloPerUID,
            maxMessagesBeforeHello: limits.maxMessagesBeforeHello,
            journalSyncs: journalSyncs,
            tcpToken: tcpToken,
            tcpTokenPath: TCPToken.path(besideSocket: socketPath),
            clock: clock,
            advanceSettleLimit: advanceSettleLimit
        )
        settings.freezesSuspended = freezesSuspended
        settings.memorySamplePeriod = memory.samplePeriod
        settings.brokerPid = getpid()
        return settings
    }

    /// The lifecycle machine's configuration: the profile's budgets, scaled, then the overrides.
    var deviceConfiguration: DeviceConfiguration {
        var budgets = Budgets.defaults(for: profile).scaled(by: timeScale)
        for (callback, budget) in budgetOverrides { budgets[callback] = budget }
        return DeviceConfiguration(
            profile: profile, budgets: budgets, enforcesWatchdog: enforcesWatchdog, sceneOrderSeed: sceneOrderSeed,
            callPresentation: callPresentation, conditions: conditions,
            knobs: knobs)
    }
}

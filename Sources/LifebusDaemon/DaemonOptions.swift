import LifebusBroker
import LifebusContainment
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Logging

/// `lifebusd`'s command line, parsed by hand: the daemon's resident size and start-up are budgeted (≤ 8 MiB idle),
/// and swift-argument-parser brings FoundationEssentials, which alone costs more than that budget allows. Options
/// are `--name value` or `--name=value`.
///
/// A plain value. Invariant after `parse`: `timeScale` is within `timeScaleRange` and `helloTimeout` within
/// `helloTimeoutRange` (out of range is a usage error: a scale of 1e300 or 1e-300 would make every budget absurd).
struct DaemonOptions: Equatable {
    var socket: String?
    var tcpPort: Int?
    var helloTimeout: Duration = .seconds(5)
    var profile: Profile = .ios7
    var timeScale: Double = 1
    var journal: String?
    var journalMaxBytes: Int? = BrokerConfiguration.defaultJournalMaxBytes
    var journalSync = false
    var logLevel: Logger.Level = .info
    var limits = ConnectionLimits()
    var showHelp = false
    var showVersion = false
    var budgets: [LifecycleCallback: Duration] = [:]
    var enforcesWatchdog = true
    /// `--scene-order-seed N`: the seed of the scene orders Apple does not document (0 … 2^63 − 1).
    var sceneOrderSeed: UInt64 = 0
    var clock = ClockKind.real
    var advanceSettle: Duration = .seconds(5)
    var appsFolder: String?
    var memory = MemoryOptions()
    var freezesSuspended = false
    var callPresentation = CallPresentation.fullScreen
    /// `--power`, `--network`: the device's conditions at start (processing tasks wait for them).
    var conditions = DeviceConditions()
    /// `--protected-data-notifications`, `--tasks-after-force-quit`, `--background-launch-scene` (`DeviceKnobs`);
    /// each not given: the profile's.
    var knobs = DeviceKnobs()
    /// `--exit-with-parent PID`: the pid of the process that started the daemon, which it stops with.
    var parentPid: Int32?
    /// `--containment`: `nil` is auto (cgroup where the machine allows it, else subreaper).
    var containment: ContainmentMode?

    /// The accepted `--time-scale` factors.
    static let timeScaleRange: ClosedRange<Double> = 0.001...1000
    /// The accepted `--hello-timeout` durations.
    static let helloTimeoutRange: ClosedRange<Duration> = .milliseconds(1)...Duration.seconds(3600)
    /// The accepted `--advance-settle` durations (0: an advance steps on at once).
    static let advanceSettleRange: ClosedRange<Duration> = .zero...Duration.seconds(3600)

    /// A usage error, printed with the usage text; exit status 2.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Every profile's spelling, from `Profile.allCases` (the usage and `--profile`'s error list them).
    static let profileWords = Profile.allCases.map(\.rawValue).joined(separator: ", ")

    /// The usage's `USAGE:` lines, which a usage error repeats (the rest only `--help` prints).
    static var synopsis: String {
        usage.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.joined(separator: "\n")
    }

    static let usage = """
        USAGE: lifebusd [--socket <path>] [--tcp-port <port>] [--hello-timeout <duration>] [--profile <profile>]
                        [--time-scale <factor>] [--journal <path>] [--log-level <level>]
                        [--budget <callback>=<duration>]... [--watchdog enforce|observe]
                        [--max-connections <n>] [--max-unintroduced <n>] [--max-output <bytes>]
                        [--write-timeout <duration>] [--max-unanswered <n>]
                        [--journal-max <size>] [--journal-sync] [--apps <dir>]
                        [--memory-sample <d>] [--device-memory <size>] [--memory-warning-at <t>]
                        [--memory-critical-at <t>] [--freeze-suspended]
                        [--clock real|manual] [--advance-settle <duration>]
                        [--scene-order-seed <n>] [--call-presentation fullScreen|banner|seeded]
                        [--power external|battery] [--network online|offline]
                        [--protected-data-notifications queued|missed]
                        [--tasks-after-force-quit <kinds>|none]
                        [--background-launch-scene none|connects]
                        [--exit-with-parent <pid>]
                        [--containment auto|cgroup|subreaper]

        The Lifebus broker: plays iOS for the apps that connect to it.

        OPTIONS:
          --socket <path>           The Unix socket to listen on (default: $LIFEBUS_SOCKET, else
                                    $XDG_RUNTIME_DIR/lifebus.sock, else /tmp/lifebus-$UID/lifebus.sock in a private
                                    0700 folder). Created with mode 0600 under the lock PATH.lock; a stale socket
                                    left by a dead broker is replaced.
          --tcp-port <port>         Also listen on this loopback TCP port (0 picks one). A TCP peer must present
                                    the token in PATH.token (mode 0600, new each run) in hello; HTTP is refused.
          --hello-timeout <d>       How long a new connection may take to say hello (default: 5s; 1ms to 1h).
          --profile <profile>       The device model: \(profileWords) (default: \(Profile.ios7.rawValue)).
          --scene-order-seed <n>    The seed of the orders Apple does not document between scenes (callbacks
                                    across several scenes; Protocol/lifecycle.md), 0 to 2^63-1 (default: 0); the
                                    run record names it, so a run replays with the same seed.
          --time-scale <factor>     Multiply every budget (0.01 makes willTerminate's 5 s budget 50 ms; 0.001 to
                                    1000).
          --apps <dir>              Install the app manifest of every *.json file in this folder at start (a bad
                                    one is logged naming its file and member; the others load).
          --memory-sample <d>       Sample the apps' resident memory this often (default: 250ms with
                                    --device-memory, else never); apps shows it, jetsam kills the largest first.
                                    Under --clock manual the period is virtual: advance takes the samples.
          --device-memory <size>    The device's memory: the sampled total raises memory warnings and kills.
          --memory-warning-at <t>   Where warnings start: a fraction (0.8, 80%) or a size (default 0.8).
          --memory-critical-at <t>  Where critical pressure starts (jetsam; default 0.95).
          --freeze-suspended        Freeze a spawned app's whole run while it is suspended (cgroup.freeze, else
                                    SIGSTOP; thawed before anything resumes it), so its timers really stop.
          --journal <path>          Append every transition here (default: $XDG_STATE_HOME/lifebus/journal.jsonl,
                                    else /tmp/lifebus-$UID/journal.jsonl).
          --journal-max <size>      Rotate the journal once it holds this much (default: 64MiB; at least 4KiB; 0 or
                                    none: never), keeping PATH.1 (newest) to PATH.3.
          --journal-sync            fdatasync the journal before a fire or mark is answered or an observer told
                                    (group commit, once per loop turn); default: written, not synced.
          --log-level <level>       trace, debug, info (default), notice, warning, error, critical.
          --budget <cb>=<d>         Set one callback's budget, e.g. didEnterBackground=1s (repeatable; not
                                    scaled by --time-scale; the others keep theirs).
          --watchdog <mode>         enforce (default): an overrun callback gets its app killed (watchdog);
                                    observe: budgets are measured, overruns journaled late, nobody is killed.
          --clock <kind>            real (default): budgets and timers pass in real time; manual: the lifecycle
                                    runs on virtual time from 0, moved only by `lifebus clock advance DUR`
                                    (hello and write timeouts stay on real time).
          --advance-settle <d>      Under --clock manual, how long an advance waits in real time for unanswered
                                    callbacks before stepping on (default: 5s; 0 to 1h, 0: at once).
          --call-presentation <p>   How an incoming call shows on an unlocked device from ios15 (iOS 14's compact
                                    banner): fullScreen (default: it resigns the front app, as before ios15),
                                    banner (the front app stays active until the call is answered), seeded (each
                                    call draws one from the scene-order seed; the run record names the choice).
          --power <source>          The device's power at start: external (default: on its cable) or battery.
                                    A processing task that requires external power waits for `fire power
                                    external`. The run record names it when not the default.
          --network <state>         The device's network at start: online (default) or offline. A processing task
                                    that requires connectivity waits for `fire network online`.
          --protected-data-notifications <q>
                                    From ios13: queued (default) — a suspended app hears the net change of
                                    protected data when it runs again (one notification); missed — only the apps
                                    running at the lock and the wake hear them. The run record names the choice.
          --tasks-after-force-quit <kinds>
                                    From ios13: the background task kinds (appRefresh, processing,
                                    continuedProcessing, comma-separated, or none) whose due task still launches
                                    an app the user force-quit (default: processing); a task of another kind is
                                    journaled deferred and stays pending. The run record names the choice.
          --background-launch-scene <s>
                                    From ios13: none (default) — a scene app launched into the background (a
                                    silent push, a task, its own connection) connects no scene; connects — it
                                    connects one in the background, its payload withheld behind the lock and
                                    handed over after the unlock. The run record names the choice.
          --exit-with-parent <pid>  Stop cleanly, as on SIGTERM, when process <pid>, the one that started this
                                    one (its own pid, passed by it), exits, even killed by SIGKILL (watched through
                                    its pidfd). Exits at once (status 1) when <pid> is gone or is not this
                                    process's parent at start: it exited before it could be watched. For programs
                                    that start a private broker (lifebus run, lifebus mcp --start-broker pass it).
          --containment <mode>      How every process an app starts is contained, whole tree (Protocol §16.2):
                                    auto (default): a cgroup v2 per app where this user may make one, else
                                    subreaper; cgroup: the same (falls back, saying why); subreaper: never cgroups.
          --version                 Print the version and exit.
          --max-connections <n>     Connections at once (default: 1024, kept below the descriptor limit).
          --max-unintroduced <n>    Silent connections (no hello, not a byte yet), in all (default: 64; 8 per uid).
          --max-output <bytes>      Pending output per peer before it is disconnected (default: 4MiB; also
                                    accepts KiB and MiB suffixes).
          --write-timeout <d>       Disconnect a peer whose pending output makes no progress this long (default: 10s).
          --max-unanswered <n>      Requests a peer may leave unanswered before the broker stops reading it (64).
          -h, --help                Show this help.

        Prints "listening on PATH" when ready. SIGINT or SIGTERM stops it cleanly; a second signal exits at once.
        SIGHUP reopens the journal (after rotation); SIGUSR1 and SIGUSR2 log a status line.
        Exit status: 0 after a clean stop, 1 when it cannot start, 2 on a usage error.
        """

    /// Parses the arguments (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> DaemonOptions {
        var options = DaemonOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" {
                options.showHelp = true
                continue
            }
            if argument == "--version" {
                options.showVersion = true
                continue
            }
            guard argument.hasPrefix("--") else { throw UsageError(description: "unexpected argument '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if Self.flagNames.contains(name) {
                guard value == nil else { throw UsageError(description: "'--\(name)' takes no value") }
                switch name {
                case "journal-sync": options.journalSync = true
                default: options.freezesSuspended = true
                }
                continue
            }
            guard Self.optionNames.contains(name) else {
                let known = Self.optionNames.union(Self.flagNames).sorted()
                let hint = SpellingSuggestion.closest(to: name, among: known).map { "; did you mean '--\($0)'?" }
                throw UsageError(description: "unknown option '--\(name)'\(hint ?? "")")
            }
            guard let text = value ?? remaining.popFirst() else {
                throw UsageError(description: "missing value for '--\(name)'")
            }
            try options.set(name, text)
        }
        return options
    }

    private static let optionNames: Set<String> = Set([
        "socket", "tcp-port", "hello-timeout", "profile", "time-scale", "journal", "log-level",
        "budget", "watchdog", "max-connections", "max-unintroduced", "max-output", "write-timeout", "max-unanswered",
        "journal-max", "apps", "clock", "advance-settle", "containment", "exit-with-parent", "scene-order-seed",
        "call-presentation", "power", "network",
    ]).union(MemoryOptions.names).union(DeviceKnobs.flags.map(\.name))

    /// Options without a value.
    private static let flagNames: Set<String> = ["journal-sync", "freeze-suspended"]

    private mutating func set(_ name: String, _ text: String) throws(UsageError) {
        func invalid(_ expected: String) -> UsageError {
            UsageError(description: "'\(text)' is not valid for '--\(name)': \(expected)")
        }
        switch name {
        case "socket":
            socket = text
        case "tcp-port":
            guard let port = Int(text), (0...65535).contains(port) else { throw invalid("a port from 0 to 65535") }
            tcpPort = port
        case "hello-timeout":
            guard let duration = DurationText.parse(text), Self.helloTimeoutRange.contains(duration) else {
                throw invalid("a duration from 1ms to 1h, like 250ms, 5s or 2m")
            }
            helloTimeout = duration
        case "profile":
            guard let parsed = Profile(rawValue: text) else {
                let hint = SpellingSuggestion.closest(to: text, among: Profile.allCases.map(\.rawValue))
                throw invalid("one of \(Self.profileWords)" + (hint.map { "; did you mean \($0)?" } ?? ""))
            }
            profile = parsed
        case "time-scale":
            guard let factor = Double(text), Self.timeScaleRange.contains(factor) else {
                throw invalid("a number from 0.001 to 1000")
            }
            timeScale = factor
        case "journal":
            journal = text
        case "apps":
            appsFolder = text
        case _ where MemoryOptions.names.contains(name):
            try memory.set(name, text)
        case "budget":
            let known = LifecycleCallback.allCases.map(\.rawValue).joined(separator: ", ")
            guard let equals = text.firstIndex(of: "="),
                let callback = LifecycleCallback(rawValue: String(text[..<equals])),
                let duration = DurationText.parse(String(text[text.index(after: equals)...]))
            else {
                throw invalid("CALLBACK=DURATION, e.g. didEnterBackground=1s; callbacks: \(known)")
            }
            budgets[callback] = duration
        case "watchdog":
            guard text == "enforce" || text == "observe" else { throw invalid("enforce or observe") }
            enforcesWatchdog = text == "enforce"
        case "max-connections", "max-unintroduced", "max-output", "write-timeout", "max-unanswered":
            try limits.set(name, text)
        case "clock":
            guard let kind = ClockKind(rawValue: text) else { throw invalid("real or manual") }
            clock = kind
        case "call-presentation":
            guard let presentation = CallPresentation(rawValue: text) else {
                throw invalid("fullScreen, banner or seeded")
            }
            callPresentation = presentation
        case "power":
            guard let power = PowerSource(rawValue: text) else { throw invalid("external or battery") }
            conditions.power = power
        case "network":
            guard let network = NetworkState(rawValue: text) else { throw invalid("online or offline") }
            conditions.network = network
        case _ where DeviceKnobs.isFlag(name):
            guard knobs.set(name, to: text) else {
                throw invalid(DeviceKnobs.flags.first { $0.name == name }?.words ?? "")
            }
        case "advance-settle":
            guard let duration = DurationText.parse(text), Self.advanceSettleRange.contains(duration) else {
                throw invalid("a duration from 0 to 1h, like 0s, 250ms, 5s or 2m")
            }
            advanceSettle = duration
        case "containment":
            guard text == "auto" || ContainmentMode(rawValue: text) != nil else {
                throw invalid("auto, cgroup or subreaper")
            }
            containment = ContainmentMode(rawValue: text)
        case "scene-order-seed":
            guard let seed = UInt64(text), seed <= UInt64(Int64.max) else {
                throw invalid("an integer from 0 to 2^63-1")
            }
            sceneOrderSeed = seed
        case "exit-with-parent":
            guard let pid = Int32(text), pid > 0 else { throw invalid("the pid of the process that starts lifebusd") }
            parentPid = pid
        case "journal-max":
            guard let size = ByteSizeText.parse(text), (size ?? 4096) >= 4096
            else { throw invalid("a size of at least 4KiB like 64MiB, or 0 or none for no limit") }
            journalMaxBytes = size
        default:
            guard let level = Logger.Level(rawValue: text) else {
                throw invalid("trace, debug, info, notice, warning, error or critical")
            }
            logLevel = level
        }
    }
}

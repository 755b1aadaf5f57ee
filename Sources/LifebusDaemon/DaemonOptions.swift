import LifebusBroker
import LifebusCore
import LifebusProtocol
import Logging

/// `lifebusd`'s command line, parsed by hand: the daemon's resident size and start-up are budgeted (≤ 8 MiB idle),
/// and swift-argument-parser brings FoundationEssentials, which alone costs more than that budget allows. Options
/// are `--name value` or `--name=value`.
///
/// A plain value. Invariant after `parse`: `timeScale` is finite and positive.
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
    var showHelp = false

    /// A usage error, printed with the usage text; exit status 2.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    static let usage = """
        USAGE: lifebusd [--socket <path>] [--tcp-port <port>] [--hello-timeout <duration>] [--profile <profile>]
                        [--time-scale <factor>] [--journal <path>] [--log-level <level>]
                        [--journal-max <size>] [--journal-sync]

        The Lifebus broker: plays iOS for the apps that connect to it.

        OPTIONS:
          --socket <path>           The Unix socket to listen on (default: $LIFEBUS_SOCKET, else
                                    $XDG_RUNTIME_DIR/lifebus.sock, else /tmp/lifebus-$UID.sock). Created with mode
                                    0600; a stale socket left by a dead broker is replaced.
          --tcp-port <port>         Also listen on this loopback TCP port (0 picks one).
          --hello-timeout <d>       How long a new connection may take to say hello (default: 5s).
          --profile <profile>       The device model: ios3 (no multitasking), ios4, ios7 (default).
          --time-scale <factor>     Multiply every budget (0.01 makes willTerminate's 5 s budget 50 ms).
          --journal <path>          Append every transition here (default: $XDG_STATE_HOME/lifebus/journal.jsonl,
                                    else /tmp/lifebus-$UID/journal.jsonl).
          --journal-max <size>      Rotate the journal once it holds this much (default: 64MiB; at least 4KiB; 0 or
                                    none: never), keeping PATH.1 (newest) to PATH.3.
          --journal-sync            fdatasync the journal before a fire or mark is answered or an observer told
                                    (group commit, once per loop turn); default: written, not synced.
          --log-level <level>       trace, debug, info (default), notice, warning, error, critical.
          -h, --help                Show this help.

        Prints "listening on PATH" when ready. SIGINT or SIGTERM stops it cleanly; a second signal exits at once.
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
            guard argument.hasPrefix("--") else { throw UsageError(description: "unexpected argument '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if Self.flagNames.contains(name) {
                guard value == nil else { throw UsageError(description: "'--\(name)' takes no value") }
                options.journalSync = true
                continue
            }
            guard Self.optionNames.contains(name) else { throw UsageError(description: "unknown option '--\(name)'") }
            guard let text = value ?? remaining.popFirst() else {
                throw UsageError(description: "missing value for '--\(name)'")
            }
            try options.set(name, text)
        }
        return options
    }

    private static let optionNames: Set<String> = [
        "socket", "tcp-port", "hello-timeout", "profile", "time-scale", "journal", "log-level",
        "journal-max",
    ]

    /// Options without a value.
    private static let flagNames: Set<String> = ["journal-sync"]

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
            guard let duration = DurationText.parse(text) else { throw invalid("a duration like 250ms, 5s or 2m") }
            helloTimeout = duration
        case "profile":
            guard let parsed = Profile(rawValue: text) else { throw invalid("ios3, ios4 or ios7") }
            profile = parsed
        case "time-scale":
            guard let factor = Double(text), factor.isFinite, factor > 0 else { throw invalid("a positive number") }
            timeScale = factor
        case "journal":
            journal = text
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

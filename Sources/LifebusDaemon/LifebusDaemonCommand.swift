public import ArgumentParser
import Glibc
import LifebusBroker
import LifebusCore
import LifebusIO
import LifebusProtocol
import Logging

/// `lifebusd`: parses the command line, starts the broker on the main thread's loop, and stops it on SIGINT/SIGTERM.
///
/// Exit status: 0 after a clean stop, 1 when the broker cannot start (for example a live broker already listens on
/// the socket), 2 on a usage error, 128+N when a second signal N arrives during the stop.
public struct LifebusDaemonCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "lifebusd",
        abstract: "The Lifebus broker: plays iOS for the apps that connect to it.",
        discussion: """
            The socket path is --socket, else $LIFEBUS_SOCKET, else $XDG_RUNTIME_DIR/lifebus.sock, \
            else /tmp/lifebus-$UID.sock. It is created with mode 0600; a stale socket left by a dead broker is \
            replaced. Prints "listening on PATH" when ready. SIGINT or SIGTERM stops it cleanly; a second signal \
            exits at once.
            """
    )

    @Option(help: "The Unix socket to listen on.")
    var socket: String?

    @Option(help: "Also listen on this loopback TCP port (0 picks one).")
    var tcpPort: Int?

    @Option(help: "How long a new connection may take to say hello (e.g. 5s, 250ms).", transform: parseDuration)
    var helloTimeout: Duration = .seconds(5)

    @Option(help: "The device model: ios3 (no multitasking), ios4, ios7.")
    var profile: Profile = .ios7

    @Option(help: "Multiply every budget by this (0.01 makes willTerminate's 5 s budget 50 ms).")
    var timeScale: Double = 1

    @Option(help: "Append every transition here (default: $XDG_STATE_HOME/lifebus/journal.jsonl, else /tmp/lifebus-$UID/journal.jsonl).")
    var journal: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    public init() {}

    public func validate() throws {
        guard timeScale > 0, timeScale.isFinite else { throw ValidationError("--time-scale must be a positive number") }
    }

    public func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let path = BrokerSocketPath.resolve(
            explicit: socket,
            environment: ProcessEnvironment.current,
            uid: getuid()
        )
        let environment = ProcessEnvironment.current
        let configuration = BrokerConfiguration(
            socketPath: path,
            tcpPort: tcpPort,
            helloTimeout: helloTimeout,
            profile: profile,
            timeScale: timeScale,
            journalPath: journal ?? BrokerConfiguration.defaultJournalPath(environment: environment, uid: getuid())
        )
        let exitStatus = try DaemonRunner(configuration: configuration, logger: Logger(label: "lifebusd")).run()
        if exitStatus != 0 {
            throw ExitCode(exitStatus)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension Profile: ExpressibleByArgument {}

func parseDuration(_ text: String) throws -> Duration {
    guard let duration = DurationText.parse(text) else {
        throw ValidationError("'\(text)' is not a duration; write it like 250ms, 5s or 2m")
    }
    return duration
}

import Glibc
import LifebusBroker
import LifebusContainment
import LifebusIO
import LifebusProtocol
import Logging

/// `lifebusd`'s entry: parses the command line, bootstraps logging (only the executable does), starts the broker on
/// the main thread's loop and exits with the documented status.
public enum LifebusDaemon {
    /// Runs the daemon with the process's arguments and exits.
    public static func main() -> Never {
        ContainmentGuard.runIfRequested()  // the guard a broker leaves behind is this program run again
        let options: DaemonOptions
        do {
            options = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            // As swift-argument-parser does: the error, the synopsis, where the rest is; not the whole help.
            StandardError.writeLine(
                "lifebusd: error: \(error)\n\(DaemonOptions.synopsis)\n  See 'lifebusd --help' for more information.")
            exit(2)
        }
        if options.showHelp {
            print(DaemonOptions.usage)
            exit(0)
        }
        if options.showVersion {
            print(LifebusVersion.current)
            exit(0)
        }
        if let socket = options.socket, let problem = missingDirectory(of: socket) {
            StandardError.writeLine("lifebusd: cannot listen on \(socket): \(problem)")
            exit(1)
        }
        MallocPolicy.apply()
        let level = options.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let environment = ProcessEnvironment.current
        let defaultJournal = BrokerConfiguration.defaultJournalPath(environment: environment, uid: getuid())
        var configuration = BrokerConfiguration(
            socketPath: BrokerSocketPath.resolve(explicit: options.socket, environment: environment, uid: getuid()),
            tcpPort: options.tcpPort,
            helloTimeout: options.helloTimeout,
            profile: options.profile,
            timeScale: options.timeScale,
            journalPath: options.journal ?? defaultJournal,
            privateDirectory: BrokerSocketPath.privateDirectory(environment: environment, uid: getuid())
        )
        configuration.budgetOverrides = options.budgets
        configuration.enforcesWatchdog = options.enforcesWatchdog
        configuration.sceneOrderSeed = options.sceneOrderSeed
        configuration.appsFolder = options.appsFolder
        configuration.memory = options.memory.settings
        configuration.freezesSuspended = options.freezesSuspended
        configuration.callPresentation = options.callPresentation
        configuration.conditions = options.conditions
        configuration.knobs = options.knobs
        configuration.limits = options.limits
        configuration.journalMaxBytes = options.journalMaxBytes
        configuration.journalSyncs = options.journalSync
        configuration.clock = options.clock
        configuration.advanceSettleLimit = options.advanceSettle
        configuration.containment = ContainmentSettings(
            mode: options.containment, guardProgram: OwnExecutable.path ?? "lifebusd")
        do {
            let logger = Logger(label: "lifebusd")
            let runner = DaemonRunner(configuration: configuration, logger: logger, parentPid: options.parentPid)
            exit(try runner.run())
        } catch {
            StandardError.writeLine("lifebusd: \(error)")
            exit(1)
        }
    }

    /// Why the socket's directory cannot hold it, when it is missing or not a directory; `nil` when it exists (the
    /// broker's own errors cover the rest, e.g. permissions).
    static func missingDirectory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        var info = stat()
        guard stat(directory, &info) == 0 else {
            return "the directory \(directory) does not exist; create it, or choose another --socket"
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a directory" }
        return nil
    }
}

import Glibc
import LifebusBroker
import LifebusIO
import LifebusProtocol
import Logging

/// `lifebusd`'s entry: parses the command line, bootstraps logging (only the executable does), starts the broker on
/// the main thread's loop and exits with the documented status.
public enum LifebusDaemon {
    /// Runs the daemon with the process's arguments and exits.
    public static func main() -> Never {
        let options: DaemonOptions
        do {
            options = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            StandardError.writeLine("lifebusd: error: \(error)\n\n\(DaemonOptions.usage)")
            exit(2)
        }
        if options.showHelp {
            print(DaemonOptions.usage)
            exit(0)
        }
        let level = options.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let environment = ProcessEnvironment.current
        let defaultJournal = BrokerConfiguration.defaultJournalPath(environment: environment, uid: getuid())
        let configuration = BrokerConfiguration(
            socketPath: BrokerSocketPath.resolve(explicit: options.socket, environment: environment, uid: getuid()),
            tcpPort: options.tcpPort,
            helloTimeout: options.helloTimeout,
            profile: options.profile,
            timeScale: options.timeScale,
            journalPath: options.journal ?? defaultJournal,
            privateDirectory: BrokerSocketPath.privateDirectory(environment: environment, uid: getuid())
        )
        do {
            exit(try DaemonRunner(configuration: configuration, logger: Logger(label: "lifebusd")).run())
        } catch {
            StandardError.writeLine("lifebusd: \(error)")
            exit(1)
        }
    }
}

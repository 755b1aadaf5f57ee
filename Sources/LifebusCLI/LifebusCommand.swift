public import ArgumentParser
import Glibc
import LifebusIO
import LifebusProtocol

/// `lifebus`: the command line for scripts and people — fire interruptions, query the broker, wait for states.
///
/// Exit status (also in `--help` and the README): 0 success; 1 a condition not met (a wait or a launch timed out, an
/// expectation failed, a journal could not be read); 2 usage error; 3 broker unreachable; 4 the broker refused the
/// request.
public struct LifebusCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "lifebus",
        abstract: "Drive and inspect the Lifebus broker.",
        discussion: """
            Exit status: 0 success, 1 a condition not met (a wait timed out, a launch timed out: the app did not \
            connect within its launch budget, an expectation failed, fire --expect or --fail-on saw another \
            outcome, a journal could not be read), 2 usage error, 3 broker unreachable (or it went away; \
            subscribe: no broker accepted it within --connect-timeout, or its program ended before it ever \
            connected), 4 the broker refused the request (e.g. a rejected event, an unknown app). An event that \
            moves no app is not refused: exit 0. A wait longer than 2 s says on stderr what it waits for.
            """,
        version: LifebusVersion.current,
        subcommands: [
            Ping.self, Fire.self, Status.self, Wait.self, History.self, Watch.self, Subscribe.self, Mark.self,
            Expect.self, Reset.self, Trace.self, MCP.self, Install.self, Uninstall.self, Apps.self, Logs.self,
            ClockCommand.self, ProtectedData.self,
            Run.self, Merge.self, Coverage.self,
        ]
    )

    public init() {}

    /// Parses the arguments, runs the subcommand and exits with the documented status.
    public static func runAsMain(_ arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Glibc.exit(0)
        } catch {
            exitReporting(error, words: arguments ?? Array(CommandLine.arguments.dropFirst()))
        }
    }

    /// Prints what `error` says (help, a usage error with a hint, nothing for a status) and exits with its status.
    static func exitReporting(_ error: any Error, words: [String]) -> Never {
        if let status = error as? CLIExitStatus {
            Glibc.exit(status.rawValue)
        }
        let status = exitStatus(for: error)
        if status == 0 {
            print(fullMessage(for: error))
        } else if words.contains("--json") {
            let hint = CommandSuggestion.hint(for: words, root: LifebusCommand.self)
            CLIErrorReport(json: true).write(
                name: "lifebus.UsageError", message(for: error), extra: hint.map { ["hint": .string($0)] } ?? [:])
        } else {
            let hint = CommandSuggestion.hint(for: words, root: LifebusCommand.self)
            StandardError.writeLine(fullMessage(for: error) + (hint.map { "\n" + $0 } ?? ""))
        }
        Glibc.exit(status)
    }

    /// The documented exit status for an error thrown by parsing or running: usage errors are 2, help is 0.
    static func exitStatus(for error: any Error) -> Int32 {
        if let status = error as? CLIExitStatus { return status.rawValue }
        let code = exitCode(for: error)
        return code == .validationFailure ? CLIExitStatus.usage.rawValue : code.rawValue
    }
}

/// The documented exit statuses, thrown by subcommands to end with one of them.
public enum CLIExitStatus: Int32, Error {
    case conditionNotMet = 1
    case usage = 2
    case unreachable = 3
    case refused = 4
}

import ArgumentParser
import Glibc
import LifebusCLI
import LifebusIO

/// Parses `arguments` as `Command`, runs it, and exits with the statuses `lifebus` documents (usage errors are 2, not
/// EX_USAGE).
func runAsMain<Command: ParsableCommand>(_: Command.Type, _ arguments: [String]) -> Never {
    do {
        var command = try Command.parseAsRoot(arguments)
        try command.run()
        exit(0)
    } catch let status as CLIExitStatus {
        exit(status.rawValue)
    } catch {
        let code = Command.exitCode(for: error)
        if code == .success {
            print(Command.fullMessage(for: error))
            exit(0)
        }
        StandardError.writeLine(Command.fullMessage(for: error))
        exit(code == .validationFailure ? CLIExitStatus.usage.rawValue : code.rawValue)
    }
}

// `lifebus run …` execs this program with its words; `lifebus merge …` with `merge` first.
let words = Array(CommandLine.arguments.dropFirst())
if words.first == "merge" {
    runAsMain(MergeCommand.self, Array(words.dropFirst()))
} else {
    runAsMain(RunCommand.self, words)
}

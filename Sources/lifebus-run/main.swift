import ArgumentParser
import Glibc
import LifebusCLI
import LifebusIO

// `lifebus run`: parse, run, and exit with the statuses `lifebus` documents (usage errors are 2, not EX_USAGE).
do {
    var command = try RunCommand.parseAsRoot()
    try command.run()
    exit(0)
} catch let status as CLIExitStatus {
    exit(status.rawValue)
} catch {
    let code = RunCommand.exitCode(for: error)
    if code == .success {
        print(RunCommand.fullMessage(for: error))
        exit(0)
    }
    StandardError.writeLine(RunCommand.fullMessage(for: error))
    exit(code == .validationFailure ? CLIExitStatus.usage.rawValue : code.rawValue)
}

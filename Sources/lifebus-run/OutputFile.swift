import LifebusCLI
import LifebusIO

/// Writing one of `lifebus run`'s or `lifebus merge`'s output files (`--report`, `--junit`): a file that cannot be
/// written is said on stderr and ends the command with exit status 1, as a failed run does. Stateless.
enum OutputFile {
    static func write(_ text: String, to path: String) throws {
        do throws(TextFile.Failure) {
            try TextFile.write(text, to: path)
        } catch {
            StandardError.writeLine("lifebus: \(error)")
            throw CLIExitStatus.conditionNotMet
        }
    }
}

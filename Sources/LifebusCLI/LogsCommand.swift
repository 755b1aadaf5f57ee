import ArgumentParser
import Glibc
import LifebusIO
import LifebusProtocol

extension LifebusCommand {
    /// `lifebus logs ID [--follow]`: what an installed app wrote to stdout and stderr (its log file, which the
    /// broker names in `apps`).
    struct Logs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logs", abstract: "Print an installed app's stdout and stderr (--follow: keep printing).")

        @Argument(help: "The app id.") var id: String
        @Flag(help: "Keep printing what the app writes until interrupted.") var follow = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var logPath: String?
            let id = self.id
            try AppsCall.request(global, LifebusMethod.apps, params: [:]) { result in
                let app = result["apps"]?.arrayValue?.first { $0["id"]?.stringValue == id }
                logPath = app?["logPath"]?.stringValue
            }
            guard let logPath else {
                StandardError.writeLine("lifebus: no app \(id) is installed")
                throw CLIExitStatus.refused
            }
            let file = open(logPath, O_RDONLY | O_CLOEXEC)
            guard file >= 0 else {
                if errno == ENOENT, !follow { return }  // never launched: nothing written yet
                StandardError.writeLine("lifebus: cannot read \(logPath): \(String(cString: strerror(errno)))")
                throw CLIExitStatus.refused
            }
            defer { close(file) }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
                if count > 0 {
                    _ = chunk.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, count) }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                guard follow, count == 0 else { return }
                usleep(200_000)  // a log file has no readiness to wait on: poll, as tail -f does
            }
        }
    }
}

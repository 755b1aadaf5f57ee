import ArgumentParser
import Glibc
import LifebusIO
import LifebusProtocol
import LifebusContainment

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
            // The reader opens the log afresh on each read: a log not written yet (never launched) is empty, and one
            // a relaunch rotated (emptied) is read again from its start.
            var reader = AppLogReader(path: logPath)
            while true {
                let bytes: [UInt8]
                do {
                    bytes = try reader.readNew()
                } catch {
                    StandardError.writeLine("lifebus: cannot read \(logPath): \(error)")
                    throw CLIExitStatus.refused
                }
                if !bytes.isEmpty {
                    Self.writeOut(bytes)
                    continue
                }
                guard follow else { return }
                usleep(200_000)  // a log file has no readiness to wait on: poll, as tail -f does
            }
        }

        /// Writes `bytes` to standard output whole (the log's bytes as they are, not decoded).
        private static func writeOut(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

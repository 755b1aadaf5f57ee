import Glibc
import Synchronization
import Testing

/// A real `lifebusd` on a socket path of its own, started for one test.
///
/// Owns the broker process, its socket path and its journal file (one per test unless the arguments name one).
/// `init` returns once the broker printed `listening on PATH` (never after a fixed sleep); `stop` sends SIGTERM and
/// returns the exit status.
final class BrokerFixture {
    let socketPath: String
    let journalPath: String
    let process: ChildProcess

    private static let counter = Atomic<Int>(0)

    /// A socket path no other test uses.
    static func uniqueSocketPath(_ tag: String = "broker") -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return "/tmp/lifebus-test-\(getpid())-\(tag)-\(number).sock"
    }

    init(arguments: [String] = [], socketPath: String? = nil) throws {
        self.socketPath = socketPath ?? Self.uniqueSocketPath()
        if let named = arguments.firstIndex(of: "--journal"), named + 1 < arguments.count {
            journalPath = arguments[named + 1]
        } else {
            journalPath = self.socketPath + ".journal.jsonl"
        }
        let journal = arguments.contains("--journal") ? [] : ["--journal", journalPath]
        process = try ChildProcess("lifebusd", ["--socket", self.socketPath] + journal + arguments)
        let line = process.stdout.readLine()
        guard line == "listening on \(self.socketPath)" else {
            throw FixtureError("lifebusd did not start: \(line ?? "nothing") / \(process.stderr.readAll(timeout: .seconds(2)))")
        }
    }

    deinit {
        if process.isAlive {
            process.signal(SIGKILL)
            process.wait()
        }
        unlink(socketPath)
        unlink(socketPath + ".lock")
        unlink(socketPath + ".token")
        unlink(journalPath)
    }

    /// The loopback TCP port from the broker's second line (`listening on tcp 127.0.0.1:PORT`); started with
    /// `--tcp-port`, read once.
    func tcpPort() throws -> Int {
        let line = process.stdout.readLine() ?? ""
        guard line.hasPrefix("listening on tcp 127.0.0.1:"), let port = Int(line.split(separator: ":").last ?? "")
        else { throw FixtureError("no TCP listening line: \(line)") }
        return port
    }

    /// The token a TCP peer presents: the content of `SOCKET.token` without its newline.
    func tcpToken() throws -> String {
        String(decoding: try readBytes(socketPath + ".token").prefix { $0 != 0x0A }, as: UTF8.self)
    }

    /// A new raw client connected to this broker.
    func connect() throws -> RawClient {
        try RawClient(path: socketPath)
    }

    /// Stops the broker with SIGTERM and returns its exit status.
    func stop() -> Int32 {
        process.signal(SIGTERM)
        return process.wait()
    }
}

/// Runs the `lifebus` CLI to completion.
func runCLI(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
    let child = try ChildProcess("lifebus", arguments, environment: environment)
    let out = child.stdout.readAll()
    let err = child.stderr.readAll(timeout: .seconds(5))
    return (child.wait(), out, err)
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Glibc
import LifebusJSON

/// Apps and the CLI against a fixture's broker: each helper runs a real process (`lifebus …`) on its socket.
extension BrokerFixture {
    /// Runs `lifebus ARGUMENTS --socket PATH` to completion.
    func cli(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try runCLI(arguments + ["--socket", socketPath])
    }

    /// Starts `lifebus subscribe --id ID EXTRA…` on this broker: a ready-made app process.
    func subscribe(_ id: String, _ extra: [String] = []) throws -> ChildProcess {
        try ChildProcess("lifebus", ["subscribe", "--socket", socketPath, "--id", id] + extra)
    }

    /// Whether `lifebus wait APP STATE` saw the app reach the state within `timeout`.
    func reached(_ app: String, _ state: String, timeout: String = "10s") throws -> Bool {
        try cli(["wait", app, state, "--timeout", timeout]).status == 0
    }

    /// `lifebus history [APP] --json`, parsed: journal entries, oldest first.
    func history(_ app: String? = nil) throws -> [JSONValue] {
        let result = try cli(["history"] + (app.map { [$0] } ?? []) + ["--json"])
        return jsonLines(result.out)
    }

    /// The app's transition records, oldest first.
    func transitions(of app: String) throws -> [JSONValue] {
        try history(app).filter { $0["type"]?.stringValue == "transition" }
    }

    /// The app's marks, oldest first.
    func marks(of app: String) throws -> [JSONValue] {
        try history(app).filter { $0["type"]?.stringValue == "mark" }
    }

    /// The log of app `id`: `logs/ID.log` beside the journal (in the fixture's own folder: this test's lines only).
    func logPath(_ id: String) -> String {
        String(journalPath[..<journalPath.lastIndex(of: "/")!]) + "/logs/\(id).log"
    }

    /// `lifebus status --json`, parsed.
    func status() throws -> JSONValue? {
        parsed(try cli(["status", "--json"]).out.split(separator: "\n").first.map(String.init))
    }
}

/// The JSON values of the lines of `text` that parse.
func jsonLines(_ text: String) -> [JSONValue] {
    text.split(separator: "\n").compactMap { parsed(String($0)) }
}

/// `"callback from->to outcome"` for a transition record: the shape assertions compare.
func summary(_ record: JSONValue) -> String {
    let callback = record["callback"]?.stringValue ?? "none"
    let from = record["from"]?.stringValue ?? "?"
    let to = record["to"]?.stringValue ?? "?"
    return "\(callback) \(from)->\(to) \(record["outcome"]?.stringValue ?? "?")"
}

extension ChildProcess {
    /// Reads stdout lines until one parses as JSON and satisfies `predicate`; `nil` at end of stream or timeout.
    func readJSONLine(timeout: Duration = .seconds(20), where predicate: (JSONValue) -> Bool) -> JSONValue? {
        stdout.readJSONLine(timeout: timeout, where: predicate)
    }

    /// Waits (on `waitpid`, so no sleep) for the child to end by itself within `timeout`; kills it otherwise.
    /// Returns the exit code, or 128+signal.
    func waitForExit(timeout: Duration = .seconds(20)) -> Int32 {
        let deadline = Deadline(after: timeout)
        // The child closes its stdout when it ends: wait for end of stream, then reap.
        _ = stdout.readAll(timeout: timeout)
        if deadline.hasPassed && isAlive { signal(SIGKILL) }
        return wait()
    }
}

extension LineReader {
    /// Reads lines until one parses as JSON and satisfies `predicate`; `nil` at end of stream or timeout.
    func readJSONLine(timeout: Duration = .seconds(20), where predicate: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Deadline(after: timeout)
        while !deadline.hasPassed {
            guard let line = readLine(timeout: .milliseconds(Int64(deadline.remainingMilliseconds))) else { return nil }
            if let value = parsed(line), predicate(value) { return value }
        }
        return nil
    }
}

import Glibc
import LifebusContainment
import LifebusIO
import LifebusJSON
import LifebusProtocol

/// One `run_scenario` call's child: `lifebus-run FILE --socket SOCKET --report REPORT` on this server's broker (the
/// scenario runner needs Yams, kept out of `lifebus`), its text output in a log file beside the report, both in a
/// private temporary folder; inline YAML is written there as the file, its manifest paths taken from the server's
/// working folder (`--directory`). When the child exits the report becomes the tool's result; past `timeoutMs` the
/// child's process group is killed and the call fails.
///
/// Bound to the server's loop. Owns the child, its timer and the folder (removed when the run ends, however it
/// ends). Invariant: `completion` runs at most once; `stop()` after it is a no-op.
final class ScenarioChildRun {
    /// What the scenario is called in progress messages: its file's path, or `inline YAML`.
    let name: String
    let timeoutMs: Double
    private let folder: String
    private let arguments: [String]
    private var child: SpawnedProcess?
    private var timer: LoopTimer?
    private var completion: ((JSONValue) -> Void)?

    init(_ arguments: JSONObject, socket: String, directory: String) throws(RPCError) {
        let path = arguments["path"]?.stringValue
        let yaml = arguments["yaml"]?.stringValue
        guard (path == nil) != (yaml == nil) else {
            throw RPCError.invalidParams(field: "path", "give a scenario file's path or its yaml, one of them")
        }
        if let timeout = arguments["timeoutMs"] {
            guard let value = timeout.doubleValue, value >= 0, value.isFinite else {
                throw RPCError.invalidParams(field: "timeoutMs", "must be a number of milliseconds ≥ 0")
            }
            timeoutMs = value
        } else {
            timeoutMs = 120_000
        }
        var template = Array("/tmp/lifebus-mcp-scenario-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw RPCError.internalError("cannot make a folder for the scenario: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        var file = path.map { $0.hasPrefix("/") ? $0 : directory + "/" + $0 } ?? ""
        var words: [String] = []
        if let yaml {
            file = folder + "/inline.yaml"
            do throws(TextFile.Failure) {
                try TextFile.write(yaml, to: file)
            } catch {
                Self.remove(folder)
                throw RPCError.internalError("cannot write the scenario: \(error)")
            }
            words = ["--directory", directory]
        }
        name = path ?? "inline YAML"
        self.arguments = [file, "--socket", socket, "--report", folder + "/report.json"] + words
    }

    /// Starts the child; `completion` gets the tool's result when it exits or times out.
    func start(loop: EventLoop, completion: @escaping (JSONValue) -> Void) throws {
        guard let program = SiblingExecutable.find("lifebus-run", path: ProcessEnvironment.current["PATH"]) else {
            throw RPCError.internalError("cannot find lifebus-run beside lifebus or on PATH")
        }
        let log = open(folder + "/output.txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard log >= 0 else { throw RPCError.internalError("cannot open the scenario's log") }
        defer { close(log) }
        self.completion = completion
        let options = SpawnedProcess.Options(
            program: program, arguments: arguments, ownProcessGroup: true, diesWithParent: true,
            outputDescriptor: log)
        child = try SpawnedProcess.spawn(options, loop: loop) { [self] termination in exited(termination) }
        let timer = try LoopTimer(loop: loop)
        timer.start(after: .milliseconds(Int64(timeoutMs.rounded(.up)))) { [self] in timedOut() }
        self.timer = timer
    }

    /// Ends the run without a result (the call was cancelled or the client went away): the child's group is killed.
    func stop() {
        guard completion != nil else { return }
        completion = nil
        end()
    }

    /// Removes the folder of a run that never started.
    func discard() {
        Self.remove(folder)
    }

    private func exited(_ termination: SpawnedProcess.Termination) {
        let output = String(decoding: (try? SystemFiles.read(folder + "/output.txt", limit: 1 << 20)) ?? [],
                            as: UTF8.self)
        let report = (try? SystemFiles.read(folder + "/report.json", limit: 64 << 20))
            .flatMap { try? JSONParser.parse($0, maxDepth: 64) }
        let result: JSONValue
        if let report {
            let passed = report["passed"]?.boolValue == true
            let text = output.isEmpty ? (passed ? "PASS \(name)" : "FAIL \(name)") : output
            result = ToolResult.success(text, structured: report)
        } else {
            result = ToolResult.failure(
                RPCError.internalError("lifebus-run ended (\(termination)) without a report: \(output)"))
        }
        finish(result)
    }

    private func timedOut() {
        if let child { kill(-child.pid, SIGKILL) }
        finish(ToolResult.failure(RPCError(.timedOut, "\(name) did not finish within \(Int(timeoutMs)) ms")))
    }

    private func finish(_ result: JSONValue) {
        guard let completion else { return }
        self.completion = nil
        end()
        completion(result)
    }

    private func end() {
        timer?.close()
        timer = nil
        if let child, child.termination == nil { kill(-child.pid, SIGKILL) }
        Self.remove(folder)
    }

    /// Removes the run's folder and the files in it (it holds no folder).
    private static func remove(_ folder: String) {
        for name in FolderEntries.names(in: folder) ?? [] { unlink("\(folder)/\(name)") }
        rmdir(folder)
    }
}

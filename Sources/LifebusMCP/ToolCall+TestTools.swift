import Glibc
import LifebusContainment
import LifebusCoverage
import LifebusExpectation
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The tools that run a whole test: install, uninstall, reset, expect, coverage (each one or two broker requests) and
/// run_scenario (`lifebus-run` on this broker, as a child whose report the call reads when it exits).
extension ToolCall {
    func install(_ arguments: JSONObject) throws(RPCError) {
        guard let path = arguments["path"]?.stringValue, !path.isEmpty else {
            throw RPCError.invalidParams(field: "path", "must be a manifest file's path")
        }
        let absolute = path.hasPrefix("/") ? path : Self.workingDirectory() + "/" + path
        let params = InstallParams.file(absolute, text: try? SystemFiles.read(absolute, limit: 1 << 20),
                                        environment: ProcessEnvironment.current)
        ask(LifebusMethod.install, .object(params)) { value in
            let id = value["id"]?.stringValue ?? "?"
            return ToolResult.success(
                "installed \(id) (\(value["executable"]?.stringValue ?? "?")); launch it with launch {app: \(id)}",
                structured: value)
        }
    }

    func uninstall(_ arguments: JSONObject) throws(RPCError) {
        guard let app = arguments["app"]?.stringValue else {
            throw RPCError.invalidParams(field: "app", "must be an app id")
        }
        ask(LifebusMethod.uninstall, ["id": .string(app)]) { value in
            ToolResult.success("uninstalled \(app)", structured: value)
        }
    }

    func reset(_ arguments: JSONObject) throws(RPCError) {
        ask(LifebusMethod.reset, [:]) { value in
            ToolResult.success("the device is reset", structured: value)
        }
    }

    func expect(_ arguments: JSONObject) throws(RPCError) {
        let request = try ExpectRequest(arguments)
        withBroker { [self] peer in
            peer.requestHistory { [self] history in
                let entries: [JournalEntry]
                switch history {
                case .success(let all): entries = all
                case .failure(let error): return finish(ToolResult.failure(error))
                }
                peer.request(LifebusMethod.status, params: StatusParams(app: request.app).json) { [self] answer in
                    let status = (try? StatusResult(json: answer.get()))?.apps.first
                    let (inScope, scope) = request.scope.select(entries, app: request.app)
                    let background = request.background.check(inScope)
                    guard let scene = request.scene else {
                        let checks = request.expectation.check(inScope, state: status?.state ?? .notRunning)
                        return finish(request.result(checks + background, scope: scope))
                    }
                    let now = status?.scenes.first { $0.scene == scene }?.state ?? .unattached
                    let checks = request.expectation.check(
                        inScope, scene: scene, states: request.sceneStates, now: now) + background
                    finish(request.result(checks, scope: "\(scope), scene \(scene.number)"))
                }
            }
        }
    }

    func coverage(_ arguments: JSONObject) throws(RPCError) {
        let app = arguments["app"]?.stringValue
        withBroker { [self] peer in
            peer.requestHistory { [self] history in
                switch history {
                case .success(let entries):
                    let coverage = LifecycleCoverage(entries: entries, app: app)
                    finish(ToolResult.success(coverage.text, structured: coverage.json))
                case .failure(let error):
                    finish(ToolResult.failure(error))
                }
            }
        }
    }

    func runScenario(_ arguments: JSONObject) throws(RPCError) {
        let run = try ScenarioChildRun(arguments, socket: server.socketPath, directory: Self.workingDirectory())
        progressMessage = "running \(run.name)"
        progressTotalMs = run.timeoutMs
        startProgress()
        do {
            try run.start(loop: server.loop) { [self] result in finish(result) }
        } catch {
            run.discard()
            throw RPCError.internalError("cannot run lifebus-run: \(error)")
        }
        onEnd { run.stop() }
    }

    /// The server's working folder, where relative paths start.
    static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline

/// What each tool does: its arguments, held first to the tool's declared schema (`ToolArguments`: no member it does
/// not take, none of a wrong JSON type), become the broker's own params (checked by the wire types, so a wrong
/// argument is refused with the same `jsonrpc.InvalidParams` and field the broker would name), and the broker's
/// answer becomes a tool result.
extension ToolCall {
    func run(_ tool: MCPToolCatalog.Name, _ arguments: JSONObject) {
        do throws(RPCError) {
            try ToolArguments.check(arguments, of: tool)
            switch tool {
            case .fire: try fire(arguments)
            case .launch: try launch(arguments)
            case .scene: try scene(arguments)
            case .status: try status(arguments)
            case .protectedData: protectedData()
            case .waitForState: try waitForState(arguments)
            case .history: try history(arguments)
            case .advanceClock: try advanceClock(arguments)
            case .timeline: try timeline(arguments)
            case .install: try install(arguments)
            case .uninstall: try uninstall(arguments)
            case .reset: try reset(arguments)
            case .expect: try expect(arguments)
            case .coverage: try coverage(arguments)
            case .runScenario: try runScenario(arguments)
            }
        } catch {
            finish(ToolResult.failure(error))
        }
    }

    private func fire(_ arguments: JSONObject) throws(RPCError) {
        var params = JSONObject()
        for key in [
            "event", "action", "app", "level", "byUser", "url", "push", "identifier", "payload", "scene", "session",
            "activity", "wait",
        ] {
            if let value = arguments[key] { params.append(key, value) }
        }
        try fire(FireParams(json: .object(params)))
    }

    private func launch(_ arguments: JSONObject) throws(RPCError) {
        var params: JSONObject = ["event": "launch", "app": arguments["app"] ?? .null]
        for key in ["url", "push", "wait"] {
            if let value = arguments[key] { params.append(key, value) }
        }
        try fire(FireParams(json: .object(params)))
    }

    /// `fire scene ACTION APP …`: the `scene` tool's arguments as the broker's `scene` event members.
    private func scene(_ arguments: JSONObject) throws(RPCError) {
        var params: JSONObject = ["event": "scene"]
        for key in ["action", "app", "scene", "session", "url", "activity", "wait"] {
            if let value = arguments[key] { params.append(key, value) }
        }
        try fire(FireParams(json: .object(params)))
    }

    func fire(_ params: FireParams) throws(RPCError) {
        progressMessage = "firing \(RPCError.echo(params.label))"
        startProgress()
        ask(LifebusMethod.fire, params.json) { value in
            guard let result = try? FireResult(json: value) else {
                return ToolResult.failure(.internalError("the broker's fire answer did not parse"))
            }
            var lines = ["\(result.event) (event \(result.eventID)): "
                + (result.completed ? "completed" : "accepted") + ", \(result.transitions.count) transition(s)"]
            lines += result.transitions.map(Self.describe)
            return ToolResult.success(lines.joined(separator: "\n"), structured: value)
        }
    }

    private func status(_ arguments: JSONObject) throws(RPCError) {
        let params = try StatusParams(json: .object(arguments))
        let socket = server.socketPath
        ask(LifebusMethod.status, params.json) { value in
            var structured = value.objectValue ?? [:]
            structured.append("socket", .string(socket))
            let apps = value["apps"]?.arrayValue ?? []
            var lines = ["socket \(socket); device: \(Self.device(value))"]
            lines += apps.map { app in
                "\(app["id"]?.stringValue ?? "?"): \(app["state"]?.stringValue ?? "?") since "
                    + "\(app["sinceMs"]?.doubleValue.map(TimelineText.format) ?? "?") ms, pid "
                    + "\(app["pid"]?.int64Value.map(String.init) ?? "none")"
                    + (app["connected"]?.boolValue == true ? "" : ", not connected")
                    + Self.sessions(app["scenes"]?.arrayValue ?? [])
                    + Self.tasks(app["tasks"]?.arrayValue ?? [])
            }
            return ToolResult.success(lines.joined(separator: "\n"), structured: .object(structured))
        }
    }

    private func waitForState(_ arguments: JSONObject) throws(RPCError) {
        if arguments["scene"] != nil { return try waitForScene(arguments) }
        var params = try WaitParams(json: .object(arguments))
        params.timeoutMs = params.timeoutMs ?? 10_000
        progressMessage = "waiting for \(RPCError.echo(params.app)) to be \(params.statesText)"
        progressTotalMs = params.timeoutMs
        startProgress()
        ask(LifebusMethod.wait, params.json) { value in
            let since = value["sinceMs"]?.doubleValue.map(TimelineText.format) ?? "?"
            let state = value["state"]?.stringValue ?? params.statesText
            let text = "\(RPCError.echo(params.app)) is \(state) (since \(since) ms)"
            return ToolResult.success(text, structured: value)
        }
    }

    private func history(_ arguments: JSONObject) throws(RPCError) {
        var params = try HistoryParams(json: .object(arguments))
        params.limit = params.limit ?? 100
        ask(LifebusMethod.history, params.json) { value in
            let entries = (value["entries"]?.arrayValue ?? []).map(\.jsonText)
            let text = entries.isEmpty ? "no transitions recorded" : entries.joined(separator: "\n")
            return ToolResult.success(text, structured: value)
        }
    }

    private func advanceClock(_ arguments: JSONObject) throws(RPCError) {
        guard let text = arguments["by"]?.stringValue, let duration = DurationText.parse(text) else {
            throw RPCError.invalidParams(field: "by", "must be a duration such as 250ms, 5s or 2m")
        }
        let milliseconds = duration.inMilliseconds
        withBroker { [self] peer in
            peer.request(Self.advanceMethod, params: ["byMs": .double(milliseconds)]) { [self] answer in
                switch answer {
                case .success(let value):
                    let now = (try? ClockResult(json: value)).map { " (now \(Int64($0.nowMs.rounded())) ms)" } ?? ""
                    finish(ToolResult.success(
                        "advanced the clock by \(RPCError.echo(text))\(now)", structured: value))
                case .failure(let error) where error.lifebusCode == .clockNotManual:
                    finish(ToolResult.failure(error, hint: Self.realClockHint))
                case .failure(let error):
                    finish(ToolResult.failure(error))
                }
            }
        }
    }

    /// The controller method a broker with a manual clock serves (`lifebusd --clock manual`).
    static let advanceMethod = LifebusMethod.advance
    static let realClockHint = """
        This broker runs on the real clock, so budgets and timers pass in real time and there is no clock to \
        advance. Start lifebusd with --clock manual to drive time with advance_clock, or use wait_for_state to let \
        time pass until a state is reached, or a smaller --time-scale to shorten every budget.
        """

    private func timeline(_ arguments: JSONObject) throws(RPCError) {
        let format = arguments["format"]?.stringValue ?? "text"
        guard ["text", "svg", "chrome"].contains(format) else {
            throw RPCError.invalidParams(field: "format", "must be text, svg or chrome")
        }
        var apps: [String] = []
        if let list = arguments["apps"] {
            guard let values = list.arrayValue, values.allSatisfy({ $0.stringValue != nil }) else {
                throw RPCError.invalidParams(field: "apps", "must be an array of app ids")
            }
            apps = values.compactMap(\.stringValue)
        }
        let path = arguments["path"]?.stringValue
        let width = try Self.svgWidth(arguments["width"], format: format)
        withBroker { [self] peer in
            peer.requestHistory { [self] answer in
                switch answer {
                case .success(let entries):
                    finish(render(entries, apps: apps, format: format, width: width, path: path))
                case .failure(let error): finish(ToolResult.failure(error))
                }
            }
        }
    }

    /// The timeline of `entries` as `format`, returned as the tool's text or written to `path`.
    private func render(_ entries: [JournalEntry], apps: [String], format: String, width: Double, path: String?)
        -> JSONValue {
        let timeline = Timeline(entries: entries, apps: apps)
        let text = switch format {
        case "svg": SVGTimeline(timeline, width: width).render()
        case "chrome": ChromeTrace.render(timeline)
        default: TimelineText.render(timeline)
        }
        guard let path else { return ToolResult.success(text) }
        do throws(TextFile.Failure) {
            try TextFile.write(text, to: path)
        } catch {
            return ToolResult.failure(RPCError.invalidParams(field: "path", error.description))
        }
        return ToolResult.success(
            "wrote the \(format) timeline (\(timeline.lanes.count) app(s)) to \(path)",
            structured: ["path": .string(path), "format": .string(format)]
        )
    }

    static func describe(_ record: TransitionRecord) -> String {
        let callback = record.callback?.rawValue ?? "(no callback)"
        let latency = record.answeredMs.map { TimelineText.format($0 - record.sentMs) + " ms" } ?? "no answer"
        let scene = record.scene.map { "/\($0.scene.number) (session \($0.session.number))" } ?? ""
        let move = record.scene.map { "\($0.from.rawValue) → \($0.to.rawValue)" }
            ?? "\(record.from.rawValue) → \(record.to.rawValue)"
        return "\(record.app)\(scene) \(callback) \(move): \(latency) of "
            + "\(TimelineText.format(record.budgetMs)) ms budget, \(record.outcome.rawValue)"
    }

    /// `; session 1: scene 3 foregroundActive, session 2: no scene`: a scene app's sessions in a status line.
    static func sessions(_ entries: [JSONValue]) -> String {
        guard !entries.isEmpty else { return "" }
        return "; " + entries.map { entry in
            let session = "session \(entry["session"]?.int64Value.map(String.init) ?? "?")"
            guard let scene = entry["scene"]?.int64Value else { return "\(session): no scene" }
            return "\(session): scene \(scene) \(entry["state"]?.stringValue ?? "?")"
        }.joined(separator: ", ")
    }

    static func device(_ status: JSONValue) -> String {
        let foreground = status["foreground"]?.stringValue ?? "none"
        return "profile \(status["profile"]?.stringValue ?? "?"), locked \(status["locked"]?.boolValue ?? false), "
            + "call \(status["call"]?.stringValue ?? "?"), alert \(status["alert"]?.stringValue ?? "none"), "
            + "foreground \(foreground)"
            + (status["protectedDataAvailable"]?.boolValue == false ? ", protected data unavailable" : "")
    }
}

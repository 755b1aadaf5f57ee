import ArgumentParser
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus wait APP STATE[|STATE…]`: returns when APP is in one of the states (now or later), exit 1 on timeout;
    /// `lifebus wait APP/SCENE SCENESTATE[|…]` the same for one of the app's scenes (the broker's
    /// scene `wait`, `SceneWaitParams`).
    struct Wait: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wait",
            abstract: "Wait until an app is in a state, or in any of several (now or later).",
            discussion: """
                Exit 0 when APP is in STATE (or in any state of background|suspended); exit 1 when --timeout \
                (default 30s) passes first, printing the app's current state and its last transitions (and \
                lifebus.TimedOut on stderr), and saying when the app never connected. An app not yet connected is \
                waited for (its state is notRunning). A wait longer than 2 s says on stderr what it waits for, how \
                long, and whether the app is connected. APP/SCENE (com.example.Notes/2, as history and watch name \
                a scene) waits for scene SCENE of APP to be in a scene state (unattached, foregroundInactive, \
                foregroundActive, background): a scene not connected (not yet, or any more) is unattached, so a \
                scene still to come is waited for in a foreground or background state; on timeout it says the \
                scene's state.
                """
        )

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The app to watch, or one of its scenes as APP/SCENE.") var app: String
        @Argument(help: ArgumentHelp(
            "The state, or any of several separated by | (background|suspended); scene states for APP/SCENE.",
            valueName: "state"
        ))
        var states: WaitStates
        @Option(help: ArgumentHelp("Give up after this long (e.g. 500ms, 10s).", valueName: "duration"))
        var timeout = DurationArgument(.seconds(30))

        func validate() throws {
            let target = try WaitTarget(app)
            let words = states.words.joined(separator: "|")
            if target.scene != nil, states.scene == nil {
                throw ValidationError("'\(words)' is not a scene state (unattached, foregroundInactive, "
                    + "foregroundActive, background), which APP/SCENE waits for")
            }
            if target.scene == nil, states.lifecycle == nil {
                throw ValidationError("'\(words)' is a scene state: name the scene as APP/SCENE (\(app)/1)")
            }
        }

        func run() throws {
            let target = try WaitTarget(app)
            if let scene = target.scene, let sceneStates = states.scene {
                return try waitForScene(app: target.app, scene: scene, states: sceneStates)
            }
            let params = WaitParams(
                app: app, states: states.lifecycle ?? [], timeoutMs: timeout.duration.inMilliseconds)
            let timeout = timeout.duration
            try ask(
                params.json,
                onSlowAnswer: { peer, say in WaitNotice.wait(params, timeout: timeout, peer: peer, say: say) },
                reached: { value throws(RPCError) in
                    let reached = try WaitResult(json: value)
                    return (WaitReport.reached(reached), reached.json)
                },
                timedOut: { error in
                    (WaitReport.timedOut(error, params: params), WaitReport.timedOutLine(error, params: params),
                     WaitTimeout(error)?.connected.map { ["connected": .bool($0)] } ?? [:])
                })
        }
    }
}

extension LifebusCommand.Wait {
    /// Asks the broker's `wait` for a scene's state (`SceneWaitParams`), exit 1 on its timeout.
    func waitForScene(app: String, scene: SceneID, states: [SceneState]) throws {
        let params = SceneWaitParams(
            app: app, scene: scene, states: states, timeoutMs: timeout.duration.inMilliseconds)
        let timeout = timeout.duration
        try ask(
            params.json,
            onSlowAnswer: { peer, say in WaitNotice.sceneWait(params, timeout: timeout, peer: peer, say: say) },
            reached: { value throws(RPCError) in
                let reached = try SceneWaitResult(json: value)
                return (SceneWaitReport.reached(reached), reached.json)
            },
            timedOut: { error in
                let line = SceneWaitReport.timedOutLine(error, params: params)
                return (line, line, [:])
            })
    }

    /// One `wait` request, an app's or a scene's: prints what `reached` makes of the answer (exit 0), or on the
    /// broker's timeout what `timedOut` says — the text printed, the line for stderr and its extra members (exit 1).
    private func ask(
        _ params: JSONValue,
        onSlowAnswer: @escaping BrokerCall.SlowAnswer,
        reached: @escaping (JSONValue) throws(RPCError) -> (text: String, json: JSONValue),
        timedOut: @escaping (RPCError) -> (printed: String, line: String, extra: JSONObject)
    ) throws {
        let json = global.json
        try BrokerCall.run(path: global.socketPath, json: json, onSlowAnswer: onSlowAnswer) { peer, _, finish in
            peer.request(LifebusMethod.wait, params: params) { answer in
                switch answer {
                case .success(let value):
                    do throws(RPCError) {
                        let result = try reached(value)
                        print(json ? result.json.jsonText : result.text)
                        finish(.success)
                    } catch {
                        finish(.refused(error))
                    }
                case .failure(let error) where error.lifebusCode == .timedOut:
                    let report = timedOut(error)
                    print(json ? (error.data ?? .null).jsonText : report.printed)
                    CLIErrorReport(json: json).write(
                        name: error.name ?? "lifebus.TimedOut", report.line, extra: report.extra)
                    finish(.conditionNotMet)
                case .failure(let error):
                    finish(.refused(error))
                }
            }
        }
    }
}

/// The text `lifebus wait` prints. Stateless; tolerant of what the broker sends (a missing member shows as `?`).
enum WaitReport {
    static func reached(_ result: WaitResult) -> String {
        "\(result.app) is \(result.state.rawValue) (since \(TransitionFormatting.milliseconds(result.sinceMs)) ms)"
    }

    /// The one line that says the wait timed out (and, when so, that the app never connected).
    static func timedOutLine(_ error: RPCError, params: WaitParams) -> String {
        let current = error.data?["state"]?.stringValue ?? "?"
        let never = WaitTimeout(error)?.neverConnected == true ? "; \(params.app) has never connected" : ""
        return "timed out after \(TransitionFormatting.milliseconds(params.timeoutMs ?? 0)) ms waiting for "
            + "\(params.app) to be \(params.statesText); it is \(current)\(never)"
    }

    static func timedOut(_ error: RPCError, params: WaitParams) -> String {
        var lines = [timedOutLine(error, params: params)]
        let records = (error.data?["transitions"]?.arrayValue ?? []).compactMap { try? TransitionRecord(json: $0) }
        if WaitTimeout(error)?.neverConnected == true {
            lines.append(WaitNotice.connectAdvice(params.app))
        } else if records.isEmpty {
            lines.append("no transitions recorded for \(params.app)")
        } else {
            lines.append("its last transitions:")
            lines += TransitionFormatting.table(records).render(style: .standardOutput)
        }
        return lines.joined(separator: "\n")
    }
}

import ArgumentParser
import Glibc
import LifebusExpectation
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus expect APP …`: an assertion for shell tests; exit 0 when it holds, 1 when not.
    struct Expect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "expect",
            abstract: "Assert what an app went through: callbacks, state, outcomes, marks; exit 0 or 1.",
            discussion: """
                Looks at APP's journal entries since the last event fired (the last one that caused a \
                transition), or --since-mark NAME, --since-seq N, --all; and at its state now. Prints each \
                assertion with the expected and the recorded values side by side; exit 0 when all hold, 1 when \
                one does not. Outcomes: \(Verdict.names.joined(separator: ", ")) — failed is a transition whose \
                handler failed (a subscribe hook that exited non-zero). Example: lifebus expect com.example.Notes \
                --callbacks willResignActive,didEnterBackground --state 'background|suspended' --outcome ok \
                --mark state-saved --data-has items=3. With --scene N, only scene N's transitions count (its scene \
                callbacks; the app's marks still do) and --state is the scene's state now (unattached when it is \
                not connected): lifebus expect com.example.Notes --scene 2 --callbacks \
                stateRestorationActivity,sceneDidDisconnect --state unattached
                """
        )

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The app.") var app: String

        @Option(help: ArgumentHelp(
            "The callbacks, in order, exactly (comma-separated; 'none' for none).", valueName: "cb,cb,…"))
        var callbacks: CallbackSequence?
        @Option(help: ArgumentHelp(
            "The state now, or any of several: background|suspended (with --scene: scene states).", valueName: "state"))
        var state: WaitStates?
        @Option(help: ArgumentHelp(
            "Look at one scene of the app: its transitions, and its scene state for --state.", valueName: "n"))
        var scene: UInt32?
        @Option(help: ArgumentHelp("Every transition in scope ended so (e.g. ok).", valueName: "outcome"))
        var outcome: Verdict?
        @Option(name: .customLong("no-outcome"), help: ArgumentHelp(
            "No transition in scope ended so (e.g. watchdog,late,crashed,failed).", valueName: "outcome,…"))
        var forbidden: ChoiceList<Verdict>?
        @Option(help: ArgumentHelp("A mark with this name in scope.", valueName: "name")) var mark: String?
        @Option(name: .customLong("data-has"), help: ArgumentHelp(
            "The mark's data has KEY with VALUE (a string's text, else its JSON; repeatable).", valueName: "key=value"))
        var dataHas: [MarkDatum] = []

        @Option(name: .customLong("since-mark"), help: ArgumentHelp(
            "Look at the entries after the app's last mark NAME.", valueName: "name"))
        var sinceMark: String?
        @Option(name: .customLong("since-seq"), help: ArgumentHelp(
            "Look at the entries after journal number N.", valueName: "n"))
        var sinceSeq: Int64?
        @Flag(help: "Look at all of the app's entries.") var all = false
        @Option(help: ArgumentHelp(
            "Keep looking until the expectation holds or this long has passed (default: look once), e.g. for a mark "
                + "a program makes on its own time.", valueName: "duration"))
        var within: DurationArgument?

        func validate() throws {
            try requireAppID(app, option: "APP")
            try requireAtMostOne([("--since-mark", sinceMark != nil), ("--since-seq", sinceSeq != nil), ("--all", all)])
            if !dataHas.isEmpty && mark == nil { throw ValidationError("--data-has needs --mark NAME") }
            if scene == 0 { throw ValidationError("--scene must be a scene number (1, 2, …)") }
            if let state, scene != nil, state.scene == nil {
                throw ValidationError("--state with --scene takes scene states (unattached, foregroundInactive, "
                    + "foregroundActive, background)")
            }
            if let state, scene == nil, state.lifecycle == nil {
                throw ValidationError("--state \(state.words.joined(separator: "|")) is a scene state: add --scene N")
            }
            guard !expectation.isEmpty || (scene != nil && state != nil) else {
                throw ValidationError("say what to expect: --callbacks, --state, --outcome, --no-outcome or --mark")
            }
        }

        var scope: ExpectScope {
            if let sinceMark { return .sinceMark(sinceMark) }
            if let sinceSeq { return .sinceSeq(sinceSeq) }
            return all ? .all : .lastEvent
        }

        var expectation: Expectation {
            var expectation = Expectation()
            expectation.callbacks = callbacks?.callbacks
            expectation.states = scene == nil ? state?.lifecycle : nil
            expectation.outcome = outcome
            expectation.forbiddenOutcomes = forbidden?.choices ?? []
            expectation.mark = mark
            expectation.markData = dataHas.map { ($0.key, $0.value) }
            return expectation
        }

        func run() throws {
            let expectation = expectation
            let start = EventLoop.monotonicNanoseconds()
            let within = within?.duration ?? .zero
            let deadline = start + within.clampedNanoseconds
            var noticed = false
            while true {
                let (results, scope) = try check(expectation)
                let passed = results.allSatisfy(\.passed)
                let now = EventLoop.monotonicNanoseconds()
                if passed || now >= deadline {
                    ExpectReport.print(results, app: app, scope: scope, json: global.json)
                    if !passed { throw CLIExitStatus.conditionNotMet }
                    return
                }
                if !noticed && now - start >= WaitNotice.patience.clampedNanoseconds {
                    noticed = true
                    let failing = results.filter { !$0.passed }
                        .map { "\($0.check): expected \($0.expected), recorded \($0.recorded)" }
                    WaitNotice.writer(json: global.json)("waiting up to \(DurationText.format(within)) for \(app): "
                        + failing.joined(separator: "; "))
                }
                usleep(50_000)  // --within: look again until the deadline
            }
        }

        /// Asks the broker once for the history and the app's state, and checks them.
        private func check(_ expectation: Expectation) throws -> (results: [Expectation.Result], scope: String) {
            let (app, scope, scene, sceneStates) = (app, scope, scene.map(SceneID.init), state?.scene)
            var outcome: (results: [Expectation.Result], scope: String) = ([], "")
            try BrokerCall.run(path: global.socketPath, json: global.json) { peer, _, finish in
                peer.request(LifebusMethod.history, params: HistoryParams().json) { answer in
                    let entries: [JournalEntry]
                    do throws(RPCError) {
                        entries = try HistoryResult(json: try answer.get()).entries
                    } catch {
                        return finish(.refused(error))
                    }
                    peer.request(LifebusMethod.status, params: StatusParams(app: app).json) { answer in
                        let status = (try? StatusResult(json: answer.get()))?.apps.first
                        let (inScope, description) = scope.select(entries, app: app)
                        guard let scene else {
                            outcome = (expectation.check(inScope, state: status?.state ?? .notRunning), description)
                            return finish(.success)
                        }
                        let sceneState = status?.scenes.first { $0.scene == scene }?.state ?? .unattached
                        outcome = (
                            expectation.check(inScope, scene: scene, states: sceneStates, now: sceneState),
                            "\(description), scene \(scene.number)"
                        )
                        finish(.success)
                    }
                }
            }
            return outcome
        }
    }
}

/// Prints `expect`'s results. Stateless.
enum ExpectReport {
    static func print(_ results: [Expectation.Result], app: String, scope: String, json: Bool) {
        let passed = results.allSatisfy(\.passed)
        if json {
            let object: JSONValue = [
                "app": .string(app), "scope": .string(scope), "passed": .bool(passed),
                "checks": .array(results.map(\.json)),
            ]
            Swift.print(object.jsonText)
            return
        }
        Swift.print("\(passed ? "PASS" : "FAIL") expect \(app), \(scope)")
        let width = results.map(\.check.count).max() ?? 0
        for result in results {
            let name = result.check + String(repeating: " ", count: width - result.check.count)
            let pad = String(repeating: " ", count: width + 5)
            Swift.print("  \(result.passed ? "ok  " : "FAIL") \(name)  expected: \(result.expected)")
            Swift.print("  \(pad)  recorded: \(result.recorded)")
        }
    }
}

import LifebusExpectation
import LifebusIO
import LifebusLifecycle
import LifebusProtocol

/// Carrying out one step against the broker.
extension ScenarioRun {
    /// How long a `fire` followed by an `advance` waits for its answer before handing it to the advance.
    static let handOver = Duration.seconds(1)

    mutating func perform(_ step: ScenarioStep, number: Int, next: ScenarioStep?) -> ScenarioStepResult {
        var result = ScenarioStepResult(number: number, step: step, status: .passed)
        let failure: String?
        switch step {
        case .launch(let app), .relaunch(let app):
            result.app = app
            currentApp = app
            failure = launch(app)
        case .fire(let params):
            result.app = params.app
            if params.event == .launch || params.event == .activate { currentApp = params.app }
            if case .advance = next {
                (failure, result.message) = fireHandingOver(params)
            } else {
                failure = fire(params)
            }
        case .advance(let duration):
            let params = AdvanceParams(byMs: Double(duration.clampedNanoseconds) / 1e6)
            failure = awaitConnections()
                ?? session.call(LifebusMethod.advance, params.json, timeout: runner.patience).failureMessage
                ?? pendingFire.flatMap { pending in
                    fireFailure(pending.params, session.fireResult(session.answer(to: pending.call,
                                                                                  timeout: runner.patience)))
                }
            pendingFire = nil
        case .wait(let wait):
            result.app = wait.app
            if let scene = wait.scene {
                failure = awaitScene(scene, of: wait.app, in: wait.sceneStates, timeout: wait.timeout)
            } else {
                failure = session.wait(app: wait.app, states: wait.states, timeout: wait.timeout).failureMessage.map {
                    "\(wait.app) did not reach \(wait.statesText): \($0)"
                }
            }
        case .expect(let expectation):
            let resolved = expectation.resolved(for: profile)
            let app = resolved.app ?? currentApp
            result.app = app
            guard let app else {
                failure = "expect names no app, and no app was launched before it"
                break
            }
            let checked = resolved.scene.map { scene in
                checkScene(resolved.expectation, sceneStates: resolved.sceneStates, app: app, scene: scene)
            } ?? check(resolved.expectation, background: resolved, app: app)
            switch checked {
            case .success(let checks):
                result.checks = checks
                failure = ScenarioReport.failedChecksText(checks)
            case .failure(let error):
                failure = error.message
            }
        case .kill(let kill):
            result.app = kill.app
            failure = self.kill(kill)
        case .note:
            failure = nil
        }
        if let failure {
            result.status = .failed
            result.message = failure
        }
        return result
    }

    /// `fire launch APP`, then until the app is active. (An app whose previous process the broker has not yet
    /// reaped needs no waiting: the broker spawns the next one at that exit.)
    private func launch(_ app: String) -> String? {
        if let failure = fire(FireParams(event: .launch, app: app)) { return failure }
        return session.wait(app: app, states: [.active], timeout: runner.patience).failureMessage.map {
            "\(app) did not become active: \($0)"
        }
    }

    /// Until the broker has journaled the reaping (`exited`) of the last process it started for a `notRunning` app,
    /// in real time; at once for an app that runs, or that the broker never started. What `endApps` waits for on a
    /// running broker, so the next scenario starts with the app's process gone.
    func awaitExit(of app: String) -> String? {
        let start = EventLoop.monotonicNanoseconds()
        let deadline = start + runner.patience.clampedNanoseconds
        var noticed = false
        while true {
            switch session.status(app: app) {
            case .failure(let error):
                return error.message
            case .success(let status):
                guard status?.state ?? .notRunning == .notRunning else { return nil }
            }
            switch session.entries(after: startSeq) {
            case .failure(let error):
                return error.message
            case .success(let entries):
                let last = entries.last { entry in
                    if case .process(let record) = entry { record.app == app } else { false }
                }
                guard case .process(let record) = last, ![.exited, .launchFailed].contains(record.event)
                else { return nil }
            }
            let now = EventLoop.monotonicNanoseconds()
            guard now < deadline else {
                return "the process of \(app) did not exit within \(DurationText.format(runner.patience))"
            }
            if !noticed && now - start >= ScenarioSession.noticeAfter.clampedNanoseconds {
                noticed = true
                StandardError.writeLine("lifebus run: waiting for the process of \(app) to exit (at most "
                    + "\(DurationText.format(runner.patience)))")
            }
            session.pause(.milliseconds(5))
        }
    }

    /// Fires and waits `handOver` for the answer; when none has come by then (an app's callback waits for virtual
    /// time), the call is left for the next step, an `advance`, to complete.
    private mutating func fireHandingOver(_ params: FireParams) -> (failure: String?, note: String?) {
        let call = session.send(LifebusMethod.fire, params.json)
        let answer = session.answer(to: call, timeout: Self.handOver)
        // The session's own timeout (no `reason`), not the broker's answer that a launch timed out.
        if case .failure(let error) = answer, error.lifebusCode == .timedOut, error.data?["reason"] == nil {
            pendingFire = (params, call)
            return (nil, "waiting for the clock: completed by the next advance")
        }
        return (fireFailure(params, session.fireResult(answer)), nil)
    }

    private func fire(_ params: FireParams) -> String? {
        fireFailure(params, session.fire(params, timeout: runner.patience))
    }

    /// Why a fire failed (refused, timed out, not waited for), or `nil`. A timeout (`lifebus.TimedOut`: a launch
    /// whose app did not connect within its launch budget, or no answer within the patience) says so, as the CLI does.
    private func fireFailure(_ params: FireParams, _ answer: Result<FireResult, RPCError>) -> String? {
        switch answer {
        case .success(let result) where !result.completed:
            return "\(params.label): the broker did not wait for its transitions"
        case .success:
            return nil
        case .failure(let error) where error.lifebusCode == .timedOut:
            // The broker's message names the event; the session's own ("no answer to fire …") does not.
            return error.data?["reason"] == nil ? "\(params.label): timed out: \(error.message)"
                : "timed out: \(error.message)"
        case .failure(let error):
            let reason = error.data?["reason"]?.stringValue.map { " (\($0))" } ?? ""
            return "\(params.label): \(error.message)\(reason)"
        }
    }

    /// Checks `expectation` against the app's entries since its previous `expect`, and its state now.
    /// `background`'s `task`, `push`, `noMark` and `noTask` are checked against the same entries.
    private mutating func check(_ expectation: Expectation, background: ScenarioExpectation, app: String)
        -> Result<[Expectation.Result], RPCError> {
        let since = expectedUpTo[app] ?? startSeq
        let all: [JournalEntry]
        switch session.entries(after: since) {
        case .success(let entries): all = entries
        case .failure(let error): return .failure(error)
        }
        let entries = all.filter { $0.app == app }
        let state: LifecycleState
        switch session.status(app: app) {
        case .success(let status): state = status?.state ?? .notRunning
        case .failure(let error): return .failure(error)
        }
        expectedUpTo[app] = all.last?.seq ?? since
        return .success(expectation.check(entries, state: state) + background.backgroundChecks(entries))
    }

    /// Sends the signal to the app's process, then waits until the broker has seen it end.
    private func kill(_ kill: ScenarioKill) -> String? {
        let pid: Int32
        switch session.status(app: kill.app) {
        case .success(let status):
            guard let found = status?.pid, status?.state != .notRunning else { return "\(kill.app) is not running" }
            pid = found
        case .failure(let error):
            return error.message
        }
        if let error = ProcessSignal.send(ScenarioKill.signals[kill.signal] ?? 9, to: pid) {
            return "cannot send SIG\(kill.signal) to \(kill.app) (pid \(pid)): \(error)"
        }
        return session.wait(app: kill.app, states: [.notRunning], timeout: runner.patience).failureMessage.map {
            "\(kill.app) did not end after SIG\(kill.signal): \($0)"
        }
    }
}

extension Result where Failure == RPCError {
    /// The error's message, or `nil` on success.
    var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}

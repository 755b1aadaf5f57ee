public import LifebusJSON
public import LifebusLifecycle
public import LifebusProtocol
public import LifebusScenario

/// A broken invariant: which app, what, and for people the details.
///
/// Two violations are the same failure (what the shrinker keeps) when their `app` and `kind` are equal.
public struct Violation: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A callback answered after its budget (`late`) or not at all (`watchdog`).
        case overBudget(LifecycleCallback)
        /// `didEnterBackground` or `willTerminate` answered without the `saves` mark before it.
        case notSaved(LifecycleCallback)
        /// A relaunch after a save without the `restores` mark, or with other data than the last save's; or a scene
        /// that connected to a session whose payload it had given (`stateRestorationActivity`) without the mark.
        case notRestored
        /// A background task neither completed nor expired in time: the `BGTask` `identifier` (its task record
        /// `expired`), or, with `nil`, a `beginBackgroundTask` (a kill for `backgroundTaskExpired`).
        case taskNotEnded(identifier: String?)
        /// The app made its `protected` mark: a write to a protected file failed.
        case protectedWriteFailed
        /// The `processing` fact's task `identifier` was launched while a requirement it declares (or the device's
        /// idleness: locked) was unmet, by the fuzzer's own account of the conditions (its `sleep`, `wake`, `power`
        /// and `network` steps).
        case processingRanUnmet(identifier: String)
    }

    public var app: String
    public var kind: Kind
    public var detail: String
    /// `notRestored`: the members the restore should have had (from the last save).
    public var expected: JSONObject?

    public init(app: String, kind: Kind, detail: String, expected: JSONObject? = nil) {
        self.app = app
        self.kind = kind
        self.detail = detail
        self.expected = expected
    }

    public var description: String { "\(app): \(detail)" }

    /// Whether `other` is the same failure.
    public func isSameFailure(as other: Violation) -> Bool {
        app == other.app && kind == other.kind
    }
}

/// Checks the fuzzer's invariants over journal entries, fed in journal order a step's worth at a time: every
/// callback answered within its budget, every background task completed or expired in time (no task record
/// `expired`, no kill for `backgroundTaskExpired`), and the apps' declared facts (`AppFacts`), among them "no
/// protected write failed" (`protected=MARK`) and "a processing task never runs while a requirement it declares is
/// unmet" (`processing=…`: the steps, handed to `observe(_:)` before their entries, say whether the device is locked
/// and what its power and network are; a broker starts unlocked, plugged in and online).
///
/// Owns, per app, the marks since its last transition record, the data of its last `saves` mark, the sessions
/// whose scene answered `stateRestorationActivity` since it last connected, and whether its `BGTask` expired with
/// its kill still to come. Invariant: all are emptied by a `start` run record (a new broker run); the device's lock
/// and conditions are the steps' (one checker per run: a step may come before the run record).
public struct InvariantChecker {
    public let facts: AppFacts
    private var locked = false
    private var conditions = DeviceConditions()
    private var marksSinceTransition: [String: [MarkRecord]] = [:]
    private var lastSaved: [String: JSONObject] = [:]
    private var restorable: [String: Set<SceneSessionID>] = [:]
    /// Apps whose `BGTask` expired (its record said so) with its kill still to come: that kill is the same violation.
    private var killedForTask: Set<String> = []

    public init(facts: AppFacts) {
        self.facts = facts
    }

    /// The step whose entries come next: `sleep` and `wake` lock and unlock the device, `power` and `network` change
    /// its conditions.
    public mutating func observe(_ step: ScenarioStep) {
        guard case .fire(let params) = step else { return }
        switch (params.event, params.action) {
        case (.sleep, _): locked = true
        case (.wake, _): locked = false
        case (.power, let action?): conditions.power = PowerSource(rawValue: action.rawValue) ?? conditions.power
        case (.network, let action?): conditions.network = NetworkState(rawValue: action.rawValue) ?? conditions.network
        default: break
        }
    }

    /// The invariants `entries` break, in order.
    public mutating func check(_ entries: [JournalEntry]) -> [Violation] {
        var violations: [Violation] = []
        for entry in entries {
            switch entry {
            case .run(let run) where run.reason == .start:
                marksSinceTransition = [:]
                lastSaved = [:]
                restorable = [:]
                killedForTask = []
            case .mark(let mark):
                marksSinceTransition[mark.app, default: []].append(mark)
                if mark.name == facts.saves { lastSaved[mark.app] = mark.data ?? [:] }
                if mark.name == facts.protectedWriteFailure {
                    let data = JSONValue.object(mark.data ?? [:]).jsonText
                    violations.append(Violation(app: mark.app, kind: .protectedWriteFailed,
                                                detail: "a protected write failed (\(mark.name) \(data))"))
                }
            case .transition(let transition):
                violations += check(transition)
                marksSinceTransition[transition.app] = []
            case .task(let task) where task.event == .expired:
                killedForTask.insert(task.app)
                violations.append(Violation(
                    app: task.app, kind: .taskNotEnded(identifier: task.identifier),
                    detail: "the \(task.kind.rawValue) task \(task.identifier) was neither completed nor expired in "
                        + "time (the app was killed, backgroundTaskExpired)"))
            case .process(let process)
            where process.event == .killed && process.reason == .kill(.backgroundTaskExpired):
                // A BGTask's expiry is its own record's violation; any other is a `beginBackgroundTask` not ended.
                if killedForTask.remove(process.app) == nil {
                    violations.append(Violation(
                        app: process.app, kind: .taskNotEnded(identifier: nil),
                        detail: "a background task was not ended in time (the app was killed, backgroundTaskExpired)"))
                }
            case .task(let task) where task.event == .launched && task.identifier == facts.processing?.identifier:
                let unmet = facts.processing?.unmet(locked: locked, conditions: conditions) ?? []
                if !unmet.isEmpty {
                    violations.append(Violation(
                        app: task.app, kind: .processingRanUnmet(identifier: task.identifier),
                        detail: "the processing task \(task.identifier) ran while "
                            + unmet.map(\.rawValue).joined(separator: ", ") + " was unmet"))
                }
            case .run, .process, .task, .push, .protectedData:
                break
            }
        }
        return violations
    }

    private mutating func check(_ transition: TransitionRecord) -> [Violation] {
        guard let callback = transition.callback else { return [] }
        let app = transition.app
        if transition.outcome == .late || transition.outcome == .watchdog {
            return [Violation(app: app, kind: .overBudget(callback),
                              detail: "\(callback.rawValue) \(transition.outcome.rawValue): not answered within its "
                                + "\(Int(transition.budgetMs)) ms budget")]
        }
        guard transition.outcome == .ok else { return [] }
        let marks = marksSinceTransition[app] ?? []
        if let saves = facts.saves, callback == .didEnterBackground || callback == .willTerminate,
           !marks.contains(where: { $0.name == saves }) {
            return [Violation(app: app, kind: .notSaved(callback),
                              detail: "\(callback.rawValue) answered without a \(saves) mark before it")]
        }
        if let scene = transition.scene, callback == .stateRestorationActivity || callback == .willConnectTo {
            return sceneRestoreViolation(app: app, callback: callback, session: scene.session, marks: marks)
                .map { [$0] } ?? []
        }
        if let restores = facts.restores, callback == .didFinishLaunching, let saved = lastSaved[app] {
            return restoreViolation(app: app, restores: restores, saved: saved,
                                    restored: marks.last(where: { $0.name == restores })).map { [$0] } ?? []
        }
        return []
    }

    /// `restores=MARK` per scene: a scene that connects (`willConnectTo`, a reconnect or a relaunch) to a session
    /// whose scene answered `stateRestorationActivity` marks MARK before it answers, with the `restores` KEYs among
    /// its data (the payload is not journaled, so the keys are checked, not their values).
    private mutating func sceneRestoreViolation(
        app: String, callback: LifecycleCallback, session: SceneSessionID, marks: [MarkRecord]
    ) -> Violation? {
        guard callback == .willConnectTo else {
            restorable[app, default: []].insert(session)
            return nil
        }
        guard let restores = facts.restores, restorable[app]?.remove(session) != nil else { return nil }
        guard let restored = marks.last(where: { $0.name == restores }) else {
            return Violation(app: app, kind: .notRestored,
                             detail: "session \(session.number) reconnected after stateRestorationActivity without a "
                                + "\(restores) mark")
        }
        let missing = (facts.restoredKeys ?? []).filter { restored.data?[$0] == nil }
        guard !missing.isEmpty else { return nil }
        return Violation(app: app, kind: .notRestored,
                         detail: "session \(session.number) reconnected: \(restores) lacks "
                            + missing.joined(separator: ", "))
    }

    private func restoreViolation(app: String, restores: String, saved: JSONObject, restored: MarkRecord?)
        -> Violation?
    {
        let data = restored?.data ?? [:]
        let keys = facts.restoredKeys ?? saved.keys.filter { data[$0] != nil }
        let expected = JSONObject(keys.map { ($0, saved[$0] ?? .null) })
        guard let restored else {
            return Violation(app: app, kind: .notRestored, detail: "relaunched after a save without a \(restores) mark",
                             expected: expected)
        }
        let differing = keys.filter { (restored.data?[$0] ?? .null).jsonText != (saved[$0] ?? .null).jsonText }
        guard !differing.isEmpty else { return nil }
        return Violation(app: app, kind: .notRestored,
                         detail: "\(restores) has \(JSONValue.object(restored.data ?? [:]).jsonText), the last save "
                            + "\(JSONValue.object(saved).jsonText) (\(differing.joined(separator: ", ")) differ)",
                         expected: expected)
    }
}

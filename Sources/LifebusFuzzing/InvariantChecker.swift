public import LifebusJSON
public import LifebusLifecycle
public import LifebusProtocol

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
/// callback answered within its budget, and the apps' declared facts (`AppFacts`).
///
/// Owns, per app, the marks since its last transition record, the data of its last `saves` mark and the sessions
/// whose scene answered `stateRestorationActivity` since it last connected. Invariant: all are emptied by a `start`
/// run record (a new broker run).
public struct InvariantChecker {
    public let facts: AppFacts
    private var marksSinceTransition: [String: [MarkRecord]] = [:]
    private var lastSaved: [String: JSONObject] = [:]
    private var restorable: [String: Set<SceneSessionID>] = [:]

    public init(facts: AppFacts) {
        self.facts = facts
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
            case .mark(let mark):
                marksSinceTransition[mark.app, default: []].append(mark)
                if mark.name == facts.saves { lastSaved[mark.app] = mark.data ?? [:] }
            case .transition(let transition):
                violations += check(transition)
                marksSinceTransition[transition.app] = []
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

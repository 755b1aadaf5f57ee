public import LifebusJSON
public import LifebusLifecycle
public import LifebusProtocol

/// What `lifebus expect` and a scenario's `expect` step assert about one app, and the checking of it against what
/// the broker recorded. A plain value; `check` is pure (the entries and the state in, one result per assertion out).
/// It lives beside the commands that assert (`LifebusCLI`'s `expect`, `LifebusScenario`'s `expect` step), not with
/// the timeline pictures.
public struct Expectation: Equatable, Sendable {
    public var callbacks: [LifecycleCallback]?
    public var states: [LifecycleState]?
    /// Every transition in scope ended so, and at least one is in scope.
    public var outcome: Verdict?
    /// No transition in scope carries any of these.
    public var forbiddenOutcomes: [Verdict] = []
    public var mark: String?
    public var markData: [(key: String, value: String)] = []
    /// A callback answered within this share (0–100 %) of its budget: every one in scope, and at least one.
    public var budget: (callback: LifecycleCallback, percent: Double)?

    public init() {}

    public static func == (lhs: Expectation, rhs: Expectation) -> Bool {
        lhs.callbacks == rhs.callbacks && lhs.states == rhs.states && lhs.outcome == rhs.outcome
            && lhs.forbiddenOutcomes == rhs.forbiddenOutcomes && lhs.mark == rhs.mark
            && lhs.markData.map(\.key) == rhs.markData.map(\.key)
            && lhs.markData.map(\.value) == rhs.markData.map(\.value)
            && lhs.budget?.callback == rhs.budget?.callback && lhs.budget?.percent == rhs.budget?.percent
    }

    public var isEmpty: Bool {
        callbacks == nil && states == nil && outcome == nil && forbiddenOutcomes.isEmpty && mark == nil
            && budget == nil
    }

    /// One assertion's result: what was expected and what was recorded, side by side.
    public struct Result: Equatable, Sendable {
        public let check: String
        public let expected: String
        public let recorded: String
        public let passed: Bool

        public init(check: String, expected: String, recorded: String, passed: Bool) {
            self.check = check
            self.expected = expected
            self.recorded = recorded
            self.passed = passed
        }

        public var json: JSONValue {
            ["check": .string(check), "expected": .string(expected), "recorded": .string(recorded),
             "passed": .bool(passed)]
        }
    }

    /// Checks the app's entries in scope (oldest first) and its current state.
    public func check(_ entries: [JournalEntry], state: LifecycleState) -> [Result] {
        let transitions = entries.compactMap { entry -> TransitionRecord? in
            if case .transition(let record) = entry { return record }
            return nil
        }
        var results: [Result] = []
        if let callbacks {
            let recorded = transitions.compactMap(\.callback)
            results.append(Result(
                check: "callbacks", expected: Self.list(callbacks.map(\.rawValue)),
                recorded: Self.list(recorded.map(\.rawValue)), passed: recorded == callbacks))
        }
        if let states {
            results.append(Result(
                check: "state", expected: states.map(\.rawValue).joined(separator: "|"), recorded: state.rawValue,
                passed: states.contains(state)))
        }
        let verdicts = transitions.map { Verdict.text($0) }
        if let outcome {
            results.append(Result(
                check: "outcome", expected: "every transition \(outcome)", recorded: Self.list(verdicts),
                passed: !transitions.isEmpty && transitions.allSatisfy(outcome.holds(for:))))
        }
        if !forbiddenOutcomes.isEmpty {
            let bad = transitions.contains { !Set(Verdict.of($0)).isDisjoint(with: forbiddenOutcomes) }
            results.append(Result(
                check: "no outcome", expected: "none " + forbiddenOutcomes.map(\.name).joined(separator: ", "),
                recorded: Self.list(verdicts), passed: !bad))
        }
        if let mark {
            results.append(checkMark(mark, in: entries))
        }
        if let budget {
            results.append(checkBudget(budget.callback, percent: budget.percent, in: transitions))
        }
        return results
    }

    /// The check named `mark NAME`: expected `present` or the wanted `KEY=VALUE`s; recorded `absent (…)` or the
    /// recorded values of those keys (a string as is unless empty, `""`; other JSON as JSON text; `KEY absent`).
    private func checkMark(_ name: String, in entries: [JournalEntry]) -> Result {
        let found = entries.reversed().lazy.compactMap { entry -> MarkRecord? in
            if case .mark(let record) = entry, record.name == name { return record }
            return nil
        }.first
        let expected = markData.isEmpty ? "present" : markData.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        guard let found else {
            let names = entries.compactMap { entry -> String? in
                if case .mark(let record) = entry { return record.name }
                return nil
            }
            return Result(check: "mark \(name)", expected: expected,
                          recorded: "absent (" + (names.isEmpty ? "no mark" : "marks " + names.joined(separator: ", "))
                              + ")", passed: false)
        }
        let data = found.data ?? [:]
        let passed = markData.allSatisfy { pair in data[pair.key].map { Self.text($0) == pair.value } ?? false }
        let recorded = markData.isEmpty ? "present" : markData.map { pair in
            data[pair.key].map { "\(pair.key)=\(Self.shown($0))" } ?? "\(pair.key) absent"
        }.joined(separator: ", ")
        return Result(check: "mark \(name)", expected: expected, recorded: recorded, passed: passed)
    }

    /// A recorded value as a person reads it beside an expected one: a non-empty string as is, else JSON text.
    private static func shown(_ value: JSONValue) -> String {
        guard let text = value.stringValue, !text.isEmpty else { return value.jsonText }
        return text
    }

    private func checkBudget(_ callback: LifecycleCallback, percent: Double, in transitions: [TransitionRecord])
        -> Result {
        let shares = transitions.filter { $0.callback == callback }.map { record in
            record.answeredMs.map { ($0 - record.sentMs) / max(record.budgetMs, 1) * 100 }
        }
        let recorded = shares.isEmpty ? "no \(callback.rawValue)"
            : shares.map { $0.map { "\(Self.percentText($0)) %" } ?? "no answer" }.joined(separator: ", ")
        return Result(
            check: "budget", expected: "\(callback.rawValue) within \(Self.percentText(percent)) % of its budget",
            recorded: recorded,
            passed: !shares.isEmpty && shares.allSatisfy { share in share.map { $0 <= percent } ?? false })
    }

    private static func percentText(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// A JSON value as a person compares it: a string's text, else its JSON text.
    public static func text(_ value: JSONValue) -> String {
        value.stringValue ?? value.jsonText
    }

    private static func list(_ items: [String]) -> String {
        items.isEmpty ? "(none)" : items.joined(separator: ", ")
    }
}

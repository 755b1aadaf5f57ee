import LifebusProtocol

/// How a transition ended for an assertion: its outcome, plus `failed` when the app said its handler failed
/// (`handlerFailed`). `--outcome ok` therefore fails on a hook that exited non-zero.
enum Verdict {
    /// The names `--outcome`, `--no-outcome`, `--fail-on` and `--expect` accept.
    static let names = TransitionOutcome.allCases.map(\.rawValue) + ["failed"]

    static func of(_ record: TransitionRecord) -> [String] {
        record.handlerFailed ? [record.outcome.rawValue, "failed"] : [record.outcome.rawValue]
    }

    /// The verdict as one word for tables and reports: `failed` wins over `ok`.
    static func text(_ record: TransitionRecord) -> String {
        guard record.handlerFailed else { return record.outcome.rawValue }
        return record.outcome == .ok ? "failed" : "\(record.outcome.rawValue)+failed"
    }

    /// Parses `watchdog,late,crashed`; each must be a known verdict.
    static func parseList(_ text: String, option: String) throws(ExpectationError) -> [String] {
        let names = text.split(separator: ",").map(String.init)
        for name in names where !Self.names.contains(name) {
            throw ExpectationError("\(option) '\(name)' is not an outcome; use \(Self.names.joined(separator: ", "))")
        }
        return names
    }
}

/// A usage mistake in an expectation, e.g. an unknown outcome.
struct ExpectationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What `lifebus expect` asserts about one app, and the checking of it against what the broker recorded.
/// A plain value; `check` is pure (the entries and the state in, one result per assertion out).
struct Expectation: Equatable {
    var callbacks: [LifecycleCallback]?
    var states: [LifecycleState]?
    var outcome: String?
    var forbiddenOutcomes: [String] = []
    var mark: String?
    var markData: [(key: String, value: String)] = []

    static func == (lhs: Expectation, rhs: Expectation) -> Bool {
        lhs.callbacks == rhs.callbacks && lhs.states == rhs.states && lhs.outcome == rhs.outcome
            && lhs.forbiddenOutcomes == rhs.forbiddenOutcomes && lhs.mark == rhs.mark
            && lhs.markData.map(\.key) == rhs.markData.map(\.key)
            && lhs.markData.map(\.value) == rhs.markData.map(\.value)
    }

    var isEmpty: Bool {
        callbacks == nil && states == nil && outcome == nil && forbiddenOutcomes.isEmpty && mark == nil
    }

    /// One assertion's result: what was expected and what was recorded, side by side.
    struct Result: Equatable {
        let check: String
        let expected: String
        let recorded: String
        let passed: Bool

        var json: JSONValue {
            ["check": .string(check), "expected": .string(expected), "recorded": .string(recorded),
             "passed": .bool(passed)]
        }
    }

    /// Checks the app's entries in scope (oldest first) and its current state.
    func check(_ entries: [JournalEntry], state: LifecycleState) -> [Result] {
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
                passed: !transitions.isEmpty && transitions.allSatisfy { Verdict.of($0) == [outcome] }))
        }
        if !forbiddenOutcomes.isEmpty {
            let bad = transitions.contains { !Set(Verdict.of($0)).isDisjoint(with: forbiddenOutcomes) }
            results.append(Result(
                check: "no outcome", expected: "none " + forbiddenOutcomes.joined(separator: ", "),
                recorded: Self.list(verdicts), passed: !bad))
        }
        if let mark {
            results.append(checkMark(mark, in: entries))
        }
        return results
    }

    private func checkMark(_ name: String, in entries: [JournalEntry]) -> Result {
        let found = entries.reversed().lazy.compactMap { entry -> MarkRecord? in
            if case .mark(let record) = entry, record.name == name { return record }
            return nil
        }.first
        let wanted = markData.map { "\($0.key)=\($0.value)" }
        let expected = "mark \(name)" + (wanted.isEmpty ? "" : " with " + wanted.joined(separator: ", "))
        guard let found else {
            let names = entries.compactMap { entry -> String? in
                if case .mark(let record) = entry { return record.name }
                return nil
            }
            return Result(check: "mark", expected: expected,
                          recorded: names.isEmpty ? "no mark" : "marks " + names.joined(separator: ", "), passed: false)
        }
        let data = found.data ?? [:]
        let passed = markData.allSatisfy { pair in data[pair.key].map { Self.text($0) == pair.value } ?? false }
        let recorded = "mark \(name)" + (found.data.map { " with \(JSONValue.object($0).jsonText)" } ?? "")
        return Result(check: "mark", expected: expected, recorded: recorded, passed: passed)
    }

    /// A JSON value as a person compares it: a string's text, else its JSON text.
    static func text(_ value: JSONValue) -> String {
        value.stringValue ?? value.jsonText
    }

    private static func list(_ items: [String]) -> String {
        items.isEmpty ? "(none)" : items.joined(separator: ", ")
    }
}

/// Which of an app's journal entries `lifebus expect` looks at. A plain value; `select` is pure.
enum ExpectScope: Equatable {
    /// The entries since the last event that caused a transition was fired (any app's), or all before any event.
    case lastEvent
    /// The entries after the app's last mark with this name.
    case sinceMark(String)
    /// The entries after this journal sequence number.
    case sinceSeq(Int64)
    case all

    /// The app's entries in scope, oldest first, and a description of the scope for the report.
    func select(_ entries: [JournalEntry], app: String) -> (entries: [JournalEntry], description: String) {
        let own = entries.filter { $0.app == app }
        switch self {
        case .all:
            return (own, "all entries")
        case .sinceSeq(let seq):
            return (own.filter { $0.seq > seq }, "entries after #\(seq)")
        case .sinceMark(let name):
            guard let mark = own.last(where: { if case .mark(let m) = $0 { m.name == name } else { false } }) else {
                return ([], "since mark \(name) (never made)")
            }
            return (own.filter { $0.seq > mark.seq }, "since mark \(name) (#\(mark.seq))")
        case .lastEvent:
            let latest = entries.compactMap { entry -> (cause: EventCause, fired: Double)? in
                guard case .transition(let record) = entry, let cause = record.cause, let fired = record.firedMs
                else { return nil }
                return (cause, fired)
            }.max { $0.cause.eventID < $1.cause.eventID }
            guard let latest else { return (own, "all entries (no event fired yet)") }
            let inScope = own.filter { entry in
                if case .transition(let record) = entry { return record.sentMs >= latest.fired }
                if case .mark(let record) = entry { return record.atMs >= latest.fired }
                return false
            }
            return (inScope, "since event \(latest.cause.eventID) (\(latest.cause.event))")
        }
    }
}

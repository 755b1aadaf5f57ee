public import LifebusLifecycle
public import LifebusProtocol

/// How a transition ended for an assertion: its outcome, or `failed` when the app said its handler failed
/// (`handlerFailed`). Shared by `lifebus expect --outcome/--no-outcome`, `lifebus fire --expect/--fail-on` and scenario
/// files' `outcome`. A plain value; its cases are derived from `TransitionOutcome.allCases` (one declaration).
///
/// A transition ended only so as `.failed` when its handler failed, and as `.outcome(o)` when its outcome is `o` and
/// its handler did not fail: `--outcome ok` therefore fails on a hook that exited non-zero, and `--outcome failed`
/// holds for it.
public enum Verdict: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case outcome(TransitionOutcome)
    case failed

    public static var allCases: [Verdict] { TransitionOutcome.allCases.map(Verdict.outcome) + [.failed] }

    /// The word users write for it: the outcome's wire spelling, or `failed`.
    public var name: String {
        switch self {
        case .outcome(let outcome): outcome.rawValue
        case .failed: "failed"
        }
    }

    public var description: String { name }

    /// The verdict a user named, or `nil` for a word that names none.
    public init?(name: String) {
        guard let verdict = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = verdict
    }

    /// Every name, in declaration order (what `--help` and the errors list).
    public static var names: [String] { allCases.map(\.name) }

    /// Every verdict `record` carries: its outcome, and `failed` when its handler failed (what `--no-outcome` and
    /// `--fail-on` look for).
    public static func of(_ record: TransitionRecord) -> [Verdict] {
        record.handlerFailed ? [.outcome(record.outcome), .failed] : [.outcome(record.outcome)]
    }

    /// Whether `record` ended so and only so (what `--outcome` and `--expect` ask of every transition).
    public func holds(for record: TransitionRecord) -> Bool {
        switch self {
        case .outcome(let outcome): record.outcome == outcome && !record.handlerFailed
        case .failed: record.handlerFailed
        }
    }

    /// The verdict as one word for tables and reports: `failed` wins over `ok`.
    public static func text(_ record: TransitionRecord) -> String {
        guard record.handlerFailed else { return record.outcome.rawValue }
        return record.outcome == .ok ? "failed" : "\(record.outcome.rawValue)+failed"
    }
}

import LifebusLifecycle

/// How a transition ended for an assertion: its outcome, plus `failed` when the app said its handler failed
/// (`handlerFailed`). `--outcome ok` therefore fails on a hook that exited non-zero. Shared by the CLI's `expect`
/// and `fire --expect` and by scenario files' `outcome`. Stateless.
public enum Verdict {
    /// The names `--outcome`, `--no-outcome`, `--fail-on` and `--expect` accept.
    public static let names = TransitionOutcome.allCases.map(\.rawValue) + ["failed"]

    public static func of(_ record: TransitionRecord) -> [String] {
        record.handlerFailed ? [record.outcome.rawValue, "failed"] : [record.outcome.rawValue]
    }

    /// The verdict as one word for tables and reports: `failed` wins over `ok`.
    public static func text(_ record: TransitionRecord) -> String {
        guard record.handlerFailed else { return record.outcome.rawValue }
        return record.outcome == .ok ? "failed" : "\(record.outcome.rawValue)+failed"
    }

    /// Parses `watchdog,late,crashed`; each must be a known verdict.
    public static func parseList(_ text: String, option: String) throws(ExpectationError) -> [String] {
        let names = text.split(separator: ",").map(String.init)
        for name in names where !Self.names.contains(name) {
            throw ExpectationError("\(option) '\(name)' is not an outcome; use \(Self.names.joined(separator: ", "))")
        }
        return names
    }
}

/// A usage mistake in an expectation, e.g. an unknown outcome.
public struct ExpectationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

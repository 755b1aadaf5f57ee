public import LifebusLifecycle

/// One row of `Protocol/lifecycle.md` as coverage sees it: its id and situation (word for word as the document's
/// table has them; `CoverageRowTableTests` keeps the two in sync) and what in a journal shows it was exercised.
///
/// Invariant: a `.journal` row lists the profiles under which its evidence can appear; a `.notInJournal` row says
/// why no journal can show it (a rejection is not journaled, the row moves no app, or the journal does not tell it
/// from another row), so coverage reports it apart instead of as never reached.
public struct CoverageRow: Sendable {
    /// What shows the row was exercised.
    public enum Evidence: Sendable {
        /// A record the predicate accepts, under one of the profiles.
        case journal(profiles: Set<Profile>, matches: @Sendable (Observation) -> Bool)
        /// No journal record tells it; the reason, for people.
        case notInJournal(String)
    }

    public let id: String
    public let situation: String
    public let evidence: Evidence

    public init(_ id: String, _ situation: String, _ evidence: Evidence) {
        self.id = id
        self.situation = situation
        self.evidence = evidence
    }

    /// Whether a journal can show this row under `profile` (a `nil` profile: under any).
    public func isObservable(under profile: Profile?) -> Bool {
        guard case .journal(let profiles, _) = evidence else { return false }
        return profile.map { profiles.contains($0) } ?? true
    }

    /// Whether `observation` shows this row.
    public func isShown(by observation: Observation) -> Bool {
        guard case .journal(let profiles, let matches) = evidence else { return false }
        if let profile = observation.profile, !profiles.contains(profile) { return false }
        return matches(observation)
    }
}

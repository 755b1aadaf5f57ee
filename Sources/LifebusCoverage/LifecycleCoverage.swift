public import LifebusLifecycle
public import LifebusProtocol

/// Which rows of `Protocol/lifecycle.md` journals exercised, per app and profile, and which they never reached.
///
/// A plain value computed from journal entries (`init(entries:app:)`), never from a broker. Invariants: `apps` are
/// in the order the journal first names them, each app's `profiles` in the order its runs came; a row is in
/// `reached` when the app's kind can reach it and at least one record of that app under that profile shows it
/// (`CoverageRow.isShown`), in `notApplicable` when it is observable under the profile and the app's kind cannot
/// reach it (`CoverageRow.applies(to:)`: a scene app and the app-delegate callbacks it never gets, an app-delegate
/// app and the scene rows; B60 and B61 show alike, the kind tells them apart), and in `neverReached` when it is
/// observable, applicable and was not reached; rows no journal
/// can show are `CoverageRow.all`'s `.notInJournal` rows, the same for every app.
public struct LifecycleCoverage: Sendable {
    /// A row reached, and by how many records.
    public struct Reach: Sendable, Equatable {
        public var row: String
        public var records: Int
    }

    /// One app under one profile.
    public struct Run: Sendable {
        /// `nil` when the journal did not name the profile (no run record).
        public var profile: Profile?
        /// The app's kind under this profile, as its records show it (`CoverageRow.AppKind`).
        public var kind: CoverageRow.AppKind
        /// In the document's row order.
        public var reached: [Reach]
        /// In the document's row order.
        public var neverReached: [CoverageRow]
        /// Rows observable under the profile that an app of this kind cannot reach, in the document's row order.
        public var notApplicable: [CoverageRow]
    }

    /// One app's coverage.
    public struct App: Sendable {
        public var app: String
        public var profiles: [Run]
    }

    public var apps: [App]

    /// The rows no journal can show, with why.
    public static var notInJournal: [CoverageRow] {
        CoverageRow.all.filter { !$0.isObservable(under: nil) }
    }

    /// The coverage of `entries` (one journal, or several concatenated), for `app` only when given.
    public init(entries: [JournalEntry], app: String? = nil, rows: [CoverageRow] = CoverageRow.all) {
        var order: [String] = []
        var profilesOf: [String: [Profile?]] = [:]
        var counts: [Key: [String: Int]] = [:]
        var sceneApps: Set<Key> = []
        for observation in Observation.all(in: entries) where app == nil || observation.app == app {
            let key = Key(app: observation.app, profile: observation.profile)
            if observation.showsSceneApp { sceneApps.insert(key) }
            if profilesOf[key.app] == nil { order.append(key.app) }
            if !(profilesOf[key.app] ?? []).contains(key.profile) {
                profilesOf[key.app, default: []].append(key.profile)
            }
            for row in rows where row.isShown(by: observation) {
                counts[key, default: [:]][row.id, default: 0] += 1
            }
        }
        apps = order.map { id in
            App(app: id, profiles: (profilesOf[id] ?? []).map { profile in
                let key = Key(app: id, profile: profile)
                let reached = counts[key] ?? [:]
                let kind: CoverageRow.AppKind = sceneApps.contains(key) ? .scene : .appDelegate
                let observable = rows.filter { $0.isObservable(under: profile) }
                return Run(
                    profile: profile,
                    kind: kind,
                    reached: rows.filter { $0.applies(to: kind) }.compactMap { row in
                        reached[row.id].map { Reach(row: row.id, records: $0) }
                    },
                    neverReached: observable.filter { $0.applies(to: kind) && reached[$0.id] == nil },
                    notApplicable: observable.filter { !$0.applies(to: kind) })
            })
        }
    }

    private struct Key: Hashable {
        var app: String
        var profile: Profile?
    }
}

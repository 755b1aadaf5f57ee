public import LifebusLifecycle
import LifebusProtocol

/// What the bus recorded, oldest first: every transition (with the callback that made it) and every mark, of every
/// app — the journal without its times, pids and measured handler times, so the same scenario gives the same
/// timeline every run and on either transport.
///
/// A plain value. Invariant: `entries` is in journal order.
public struct BusTimeline: Sendable, Equatable, CustomStringConvertible {
    /// One recorded fact.
    public enum Entry: Sendable, Equatable, CustomStringConvertible {
        /// `app` went from `from` to `to` through `callback` (`nil`: no callback, e.g. a kill), ending `outcome`.
        case transition(
            app: AppID, callback: LifecycleCallback?, from: LifecycleState, to: LifecycleState,
            outcome: TransitionOutcome
        )
        /// `app` reported the mark `name`.
        case mark(app: AppID, name: String)

        /// The app the entry is about.
        public var app: AppID {
            switch self {
            case .transition(let app, _, _, _, _), .mark(let app, _): app
            }
        }

        public var description: String {
            switch self {
            case .transition(let app, let callback, let from, let to, let outcome):
                "\(app) \(callback?.rawValue ?? "-") \(from.rawValue) -> \(to.rawValue) (\(outcome.rawValue))"
            case .mark(let app, let name):
                "\(app) mark \(name)"
            }
        }
    }

    /// Every entry, oldest first.
    public internal(set) var entries: [Entry] = []

    /// The entries about `app`, oldest first.
    public func entries(of app: AppID) -> [Entry] {
        entries.filter { $0.app == app }
    }

    /// The callbacks `app` received, in order.
    public func callbacks(of app: AppID) -> [LifecycleCallback] {
        entries.compactMap { entry in
            guard case .transition(app, let callback?, _, _, _) = entry else { return nil }
            return callback
        }
    }

    /// The marks `app` reported, in order.
    public func marks(of app: AppID) -> [String] {
        entries.compactMap { entry in
            guard case .mark(app, let name) = entry else { return nil }
            return name
        }
    }

    public var description: String {
        entries.map(\.description).joined(separator: "\n")
    }

    init() {}

    /// The timeline of journal entries (run and process records are left out: pids differ from run to run).
    init(_ journal: [JournalEntry]) {
        entries = journal.compactMap { entry in
            switch entry {
            case .transition(let record):
                .transition(
                    app: AppID(record.app), callback: record.callback, from: record.from, to: record.to,
                    outcome: record.outcome
                )
            case .mark(let record):
                .mark(app: AppID(record.app), name: record.name)
            case .run, .process:
                nil
            }
        }
    }
}

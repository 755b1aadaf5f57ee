public import LifebusLifecycle
import LifebusProtocol

/// What the bus recorded, oldest first: every transition (with the callback that made it; a scene's with its scene,
/// session and scene states), every mark, and every start and kill of an app's process, of every app — the journal
/// without its times, pids and measured handler times (and without the other process records), so the same scenario
/// gives the same timeline every run and on either transport.
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
        /// The scene `scene` (of `session`) of `app` went from `from` to `to` through `callback`, ending `outcome`.
        case sceneTransition(
            app: AppID, scene: SceneID, session: SceneSessionID, callback: LifecycleCallback?, from: SceneState,
            to: SceneState, outcome: TransitionOutcome
        )
        /// `app` reported the mark `name`.
        case mark(app: AppID, name: String)
        /// The broker started the process of `app` (a launch of an app that was not running; the row tables'
        /// `start A`).
        case started(app: AppID)
        /// The broker killed `app` for `reason` (the row tables' `kill A jetsam`); its transition to `notRunning`
        /// is an entry of its own.
        case killed(app: AppID, reason: KillReason)

        /// The app the entry is about.
        public var app: AppID {
            switch self {
            case .transition(let app, _, _, _, _), .sceneTransition(let app, _, _, _, _, _, _), .mark(let app, _),
                .started(let app), .killed(let app, _):
                app
            }
        }

        /// The scene the entry is about; `nil` for the app's own transitions and marks.
        public var scene: SceneID? {
            if case .sceneTransition(_, let scene, _, _, _, _, _) = self { scene } else { nil }
        }

        /// The callback the entry records, app-level or scene; `nil` for a mark, a process's start or kill, or a
        /// transition without one.
        public var callback: LifecycleCallback? {
            switch self {
            case .transition(_, let callback, _, _, _), .sceneTransition(_, _, _, let callback, _, _, _): callback
            case .mark, .started, .killed: nil
            }
        }

        public var description: String {
            switch self {
            case .transition(let app, let callback, let from, let to, let outcome):
                "\(app) \(callback?.rawValue ?? "-") \(from.rawValue) -> \(to.rawValue) (\(outcome.rawValue))"
            case .sceneTransition(let app, let scene, let session, let callback, let from, let to, let outcome):
                "\(app)/\(scene.number) \(callback?.rawValue ?? "-") \(from.rawValue) -> \(to.rawValue) "
                    + "(\(outcome.rawValue), session \(session.number))"
            case .mark(let app, let name):
                "\(app) mark \(name)"
            case .started(let app):
                "\(app) started"
            case .killed(let app, let reason):
                "\(app) killed (\(reason.rawValue))"
            }
        }
    }

    /// Every entry, oldest first.
    public internal(set) var entries: [Entry] = []

    /// The entries about `app`, oldest first.
    ///
    /// - Parameter app: The app.
    /// - Returns: Its entries.
    public func entries(of app: AppID) -> [Entry] {
        entries.filter { $0.app == app }
    }

    /// The callbacks `app` received, in order: its app delegate's and its scenes'.
    ///
    /// - Parameter app: The app.
    /// - Returns: Its callbacks.
    public func callbacks(of app: AppID) -> [LifecycleCallback] {
        entries.compactMap { $0.app == app ? $0.callback : nil }
    }

    /// The callbacks the scene `scene` of `app` received, in order.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - scene: One of its scenes.
    /// - Returns: The scene's callbacks.
    public func callbacks(of app: AppID, scene: SceneID) -> [LifecycleCallback] {
        entries.compactMap { $0.app == app && $0.scene == scene ? $0.callback : nil }
    }

    /// The scenes of `app` that connected (`willConnectTo`), in order.
    ///
    /// - Parameter app: The app.
    /// - Returns: Its scenes, in the order they connected.
    public func connectedScenes(of app: AppID) -> [SceneID] {
        entries.compactMap { $0.app == app && $0.callback == .willConnectTo ? $0.scene : nil }
    }

    /// The marks `app` reported, in order.
    ///
    /// - Parameter app: The app.
    /// - Returns: The marks' names.
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

    /// The timeline of journal entries (run records are left out, and process records but for starts and kills:
    /// pids differ from run to run, and what a process did besides is the supervisor's business).
    init(_ journal: [JournalEntry]) {
        entries = journal.compactMap { entry in
            switch entry {
            case .transition(let record):
                if let scene = record.scene {
                    .sceneTransition(
                        app: AppID(record.app), scene: scene.scene, session: scene.session, callback: record.callback,
                        from: scene.from, to: scene.to, outcome: record.outcome
                    )
                } else {
                    .transition(
                        app: AppID(record.app), callback: record.callback, from: record.from, to: record.to,
                        outcome: record.outcome
                    )
                }
            case .mark(let record):
                .mark(app: AppID(record.app), name: record.name)
            case .process(let record) where record.event == .started:
                .started(app: AppID(record.app))
            case .process(let record):
                if record.event == .killed, case .kill(let reason)? = record.reason {
                    .killed(app: AppID(record.app), reason: reason)
                } else {
                    nil
                }
            case .run, .task, .push, .protectedData:
                nil
            }
        }
    }
}

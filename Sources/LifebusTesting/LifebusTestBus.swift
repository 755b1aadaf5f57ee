public import Lifebus
public import LifebusLifecycle
import LifebusProtocol

/// A device on a bus for one test: launch apps with their delegates (or, live, installed executables:
/// `install(manifest:)`), fire interruptions, move time, crash or hold an app (`hold(_:)`), and expect what the apps
/// went through — one API over two transports (`Transport.inMemory`, `Transport.live`), as HummingbirdTesting's
/// router and live servers.
///
/// ```swift
/// let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
/// let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
/// try await bus.fire(.call(.ring))
/// try await bus.fire(.call(.answer))
/// try await bus.expect(app, callbacks: [.willResignActive, .didEnterBackground])
/// try await bus.expect(app, state: .suspended)
/// ```
///
/// Owns its transport (and through it the broker and every app). Bound to the main actor, where delegates run.
/// Invariants: every operation returns once the device has settled (each callback it caused answered, but those an app
/// held by `hold(_:)` keeps waiting), then `timeline` holds everything recorded so far; `callbackCursor[app]` counts
/// the callbacks of `app` already matched by `expect(_:callbacks:)`, `markCursor[app]` its marks already matched by
/// `expect(_:mark:)`.
@MainActor
public final class LifebusTestBus {
    /// Where the broker runs.
    public struct Transport: Sendable {
        enum Kind: Sendable {
            case inMemory
            case live(broker: String?, answerLimit: Duration)
        }

        let kind: Kind

        /// The broker's machine and the lifecycle core in this process, on a virtual clock the bus owns: no
        /// sockets, no processes, deterministic, microseconds per step.
        public static let inMemory = Transport(kind: .inMemory)
        /// The real `lifebusd` (beside the test bundle, or on `PATH`) on a temporary socket, with its manual clock;
        /// apps connect to it through the SDK over the socket, or are installed executables it starts itself, each
        /// bus's with a fresh empty state folder (`LIFEBUS_STATE_DIR`): nothing one test's apps save reaches another's.
        public static let live = Transport(kind: .live(broker: nil, answerLimit: .seconds(30)))

        /// The real broker at `path` (`nil`: found as for `live`); a request it does not answer within `answerLimit`
        /// of real time (a `fire` waiting for an app that never comes up, …) throws `LifebusTestBusError`.
        ///
        /// - Parameters:
        ///   - path: The `lifebusd` executable; `nil` (the default) finds it as ``live`` does.
        ///   - answerLimit: How long in real time the bus waits for any answer of the broker (30 s by default).
        /// - Returns: The transport, for
        ///   ``LifebusTestBus/init(_:profile:sceneOrderSeed:knobs:)``.
        public static func live(broker path: String? = nil, answerLimit: Duration = .seconds(30)) -> Transport {
            Transport(kind: .live(broker: path, answerLimit: answerLimit))
        }
    }

    /// Everything recorded so far (refreshed by every operation of the bus).
    public private(set) var timeline = BusTimeline()
    /// The journal `timeline` was read from, with its times and budgets (for outcomes and latencies).
    private(set) var journal: [JournalEntry] = []

    let transport: any BusTransport
    var apps: [AppID: LifebusTestApp] = [:]
    /// The apps installed from manifests (`install(manifest:)`), which `launch(_:)` starts as processes.
    var installed: Set<AppID> = []
    var callbackCursor: [AppID: Int] = [:]
    /// The callbacks of each scene already matched by `expect(_:scene:callbacks:)`.
    var sceneCallbackCursor: [AppID: [SceneID: Int]] = [:]
    var markCursor: [AppID: Int] = [:]
    /// Whether expectations may wait for something still to come (a live broker answers in real time).
    let waitsInRealTime: Bool

    /// A fresh device of `profile` on `transport`.
    ///
    /// - Parameters:
    ///   - transport: Where the broker runs: ``Transport/inMemory`` or ``Transport/live``.
    ///   - profile: The iOS generation the device behaves as (`.ios7` by default; `.ios13` and later have scenes).
    ///   - sceneOrderSeed: Seeds the orders Apple does not document between scenes (`lifebusd --scene-order-seed`,
    ///     0 … 2^63 − 1), so a run replays with the seed its journal names.
    ///   - knobs: The device's choices where Apple is silent, over the profile's (`lifebusd
    ///     --protected-data-notifications`, `--tasks-after-force-quit`, `--background-launch-scene`; the default:
    ///     the profile's own).
    /// - Throws: ``LifebusTestBusError`` when the live broker cannot be found or started.
    public init(
        _ transport: Transport, profile: Profile = .ios7, sceneOrderSeed: UInt64 = 0, knobs: DeviceKnobs = DeviceKnobs()
    ) async throws {
        switch transport.kind {
        case .inMemory:
            self.transport = try await InMemoryTransport(
                profile: profile, sceneOrderSeed: sceneOrderSeed, knobs: knobs)
            waitsInRealTime = false
        case .live(let broker, let answerLimit):
            self.transport = try await LiveTransport(
                broker: broker, profile: profile, sceneOrderSeed: sceneOrderSeed, knobs: knobs,
                answerLimit: answerLimit)
            waitsInRealTime = true
        }
    }

    /// Launches the app `id` served by `delegate` (it connects, as the SDK's `ApplicationMain` does) and returns
    /// once the broker has brought it up; later expectations of its callbacks start after its launch. With a
    /// `sceneDelegate` the app adopts scenes (as `ApplicationMain(id:delegate:sceneDelegate:)`): the broker drives
    /// its scenes, and a profile without scenes refuses it (`LifebusTestBusError`). `options.implementedCallbacks`
    /// says which callbacks it handles, `options.supportsMultipleScenes` whether it opens more than one window.
    ///
    /// - Parameters:
    ///   - id: The app's id.
    ///   - delegate: Answers the app's callbacks, in the test's process.
    ///   - sceneDelegate: Answers its scene callbacks, for an app that adopts scenes; `nil` (the default) for one
    ///     without.
    ///   - options: What the app declares in hello; the defaults by default.
    /// - Returns: The app, for the bus's other operations and expectations.
    /// - Throws: ``LifebusTestBusError`` when the app is already on the bus, or when the broker refuses its hello (a
    ///   scene delegate under a profile without scenes).
    public func launch(
        _ id: AppID, delegate: some ApplicationDelegate, sceneDelegate: (any SceneDelegate)? = nil,
        options: ApplicationOptions = ApplicationOptions()
    ) async throws -> LifebusTestApp {
        guard apps[id] == nil else { throw LifebusTestBusError("\(id) is already on this bus") }
        let application = try await transport.connect(
            id, options: options, delegate: delegate, sceneDelegate: sceneDelegate)
        return try await admit(LifebusTestApp(id: id, application: application))
    }

    /// Takes `app` onto the bus once the broker has launched it: its expectations start after its launch.
    func admit(_ app: LifebusTestApp) async throws -> LifebusTestApp {
        apps[app.id] = app
        try await refresh()
        callbackCursor[app.id] = timeline.callbacks(of: app.id).count
        sceneCallbackCursor[app.id] = Dictionary(
            timeline.entries(of: app.id).compactMap(\.scene).map { ($0, 1) }, uniquingKeysWith: +)
        markCursor[app.id] = timeline.marks(of: app.id).count
        return app
    }

    /// Fires a device event (as `lifebus fire` does) and returns once every transition it caused completed. An event
    /// the device refuses (a call answered with none ringing, a launch while locked, …) throws `EventRejected` with
    /// the reason, after the timeline took in whatever happened before the refusal; a launch whose app's process
    /// does not connect within the launch budget throws `LaunchTimedOut`. An event that reaches an app the
    /// test holds cannot complete: fire it with `fire(_:waiting: false)`.
    ///
    /// - Parameter event: The event, e.g. `.call(.ring)`, `.home`, `.memoryWarning(.warning)`, `.launch(app.id)`.
    /// - Throws: ``EventRejected`` when the device refused the event, ``LaunchTimedOut`` when a launch it asked for ran
    ///   out its budget.
    public func fire(_ event: ControllerEvent) async throws {
        try await fire(event, waiting: true)
    }

    /// Drops the connection of `app` (served by a delegate in the test's process) without a word, as when its
    /// process crashes, and returns once the broker has taken it in: the app is `notRunning`, its last transition
    /// `crashed` (a callback it was handling ends so). `launch(_:delegate:)` may bring it back.
    ///
    /// - Parameter app: An app launched with its delegate (``launch(_:delegate:sceneDelegate:options:)``).
    /// - Throws: ``LifebusTestBusError`` for an installed app (it runs in a process of its own).
    public func crash(_ app: LifebusTestApp) async throws {
        guard app.application != nil else {
            throw LifebusTestBusError("\(app.id) runs in a process of its own: the kit crashes in-process apps only")
        }
        try await transport.crash(app.id)
        apps[app.id] = nil
        try await refresh()
    }

    /// Moves the device's clock on by `duration`: every budget, background-task expiry and suspension that falls
    /// due on the way fires, in order, and each callback it causes is answered before the next.
    ///
    /// - Parameter duration: How far to move the device's clock.
    /// - Throws: ``LifebusTestBusError`` when the broker does not take the step (a live broker that stopped answering).
    public func advance(by duration: Duration) async throws {
        try await transport.advance(by: duration)
        try await refresh()
    }

    /// The live broker's socket (for `lifebus --socket` or a raw client beside the kit); `nil` in memory. The
    /// folder holding it goes with the bus.
    public var socketPath: String? { transport.socketPath }

    /// Ends every app and the broker. A bus that is not shut down is torn down when it goes away.
    public func shutdown() async {
        await transport.close()
    }

    /// The state the broker holds for `app` (`notRunning` for an app it does not know).
    ///
    /// - Parameter app: The app asked about.
    /// - Returns: Its lifecycle state, as the broker's status says.
    /// - Throws: ``LifebusTestBusError`` when the broker does not answer.
    public func state(of app: LifebusTestApp) async throws -> LifecycleState {
        let status = try StatusResult(json: try await transport.request(LifebusMethod.status, .object([:])))
        return status.apps.first { $0.id == app.id.rawValue }?.state ?? .notRunning
    }

    /// Reads the whole retained history into `timeline`.
    func refresh() async throws {
        var entries: [JournalEntry] = []
        var before: Int64?
        while true {
            let page = HistoryParams(limit: HistoryParams.maxLimit, beforeSeq: before)
            let result = try HistoryResult(json: try await transport.request(LifebusMethod.history, page.json))
            entries.insert(contentsOf: result.entries, at: 0)
            guard result.more, let first = result.entries.first else { break }
            before = first.seq
        }
        journal = entries
        timeline = BusTimeline(entries)
    }
}

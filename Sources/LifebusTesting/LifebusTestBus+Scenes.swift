public import Lifebus
public import LifebusLifecycle
import LifebusProtocol

/// Scenes (`Protocol/README.md` §10, `SCENES.md`): what the user does to an app's windows, and what a test expects of
/// each window. An app adopts scenes when it is launched with a scene delegate (`launch(_:delegate:sceneDelegate:)`);
/// each verb fires the device's scene event (as `lifebus fire scene …`) and returns once it completed, throwing
/// `EventRejected` when the device refuses it. Scenes and sessions are the device's numbers, as the timeline shows
/// them (`BusTimeline.Entry.sceneTransition`).
extension LifebusTestBus {
    /// The user opens a new window of `app` (with `options`: a user activity, a URL); returns the new scene.
    @discardableResult
    public func openScene(_ app: LifebusTestApp, options: SceneConnectionOptions = .none) async throws -> SceneID {
        try await newScene(of: app, .scene(.open(app.id, options)))
    }

    /// The user swipes `scene` of `app` away in the switcher (`nil`: the whole app).
    public func closeScene(_ app: LifebusTestApp, _ scene: SceneID?) async throws {
        try await fire(.scene(.close(app.id, scene)))
    }

    /// The system disconnects the background `scene` of `app` to reclaim its memory: the app is asked for the
    /// scene's restoration payload, which the broker keeps with its session.
    public func reclaim(_ app: LifebusTestApp, scene: SceneID) async throws {
        try await fire(.scene(.reclaim(app.id, scene)))
    }

    /// The user reopens `session` of `app`, whose scene was disconnected: a new scene connects to the same session,
    /// handed its payload. Returns the new scene.
    @discardableResult
    public func reconnect(_ app: LifebusTestApp, session: SceneSessionID) async throws -> SceneID {
        try await newScene(of: app, .scene(.reconnect(app.id, session)))
    }

    /// iPad: the user makes `scene` of `app` the active one of its foreground scenes.
    public func focus(_ app: LifebusTestApp, scene: SceneID) async throws {
        try await fire(.scene(.focus(app.id, scene)))
    }

    /// The scene state the broker holds for `scene` of `app` (`unattached` for a scene it does not know, or one
    /// disconnected).
    public func state(of app: LifebusTestApp, scene: SceneID) async throws -> SceneState {
        try await sessions(of: app).first { $0.scene == scene }?.state ?? .unattached
    }

    /// SwiftUI's `scenePhase` of `scene` of `app` (`SCENES.md` §3): `active`, `inactive` in the foreground but not
    /// active, `background` otherwise (a disconnected scene too).
    public func scenePhase(of app: LifebusTestApp, scene: SceneID) async throws -> ScenePhase {
        ScenePhase(try await state(of: app, scene: scene))
    }

    /// SwiftUI's `scenePhase` of `app`: `active` if any of its scenes is, `background` only when all are (or none is
    /// connected), `inactive` otherwise.
    public func scenePhase(of app: LifebusTestApp) async throws -> ScenePhase {
        ScenePhase(aggregating: try await sessions(of: app).compactMap(\.state))
    }

    /// The sessions of `app` the broker keeps whose restoration payload it holds (saved by
    /// `stateRestorationActivity`), in id order.
    public func savedSessions(of app: LifebusTestApp) async throws -> [SceneSessionID] {
        try await sessions(of: app).filter(\.restoration).map(\.session)
    }

    /// Expects `scene` of `app` to have received exactly `callbacks`, in order, since it connected (or since the
    /// app's launch) or since the previous `expect(_:scene:callbacks:)` of it (which then starts after these).
    public func expect(
        _ app: LifebusTestApp, scene: SceneID, callbacks expected: [LifecycleCallback], within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        let start = sceneCallbackCursor[app.id]?[scene] ?? 0
        var recorded: [LifecycleCallback] = []
        try await poll(within: within) {
            recorded = Array(timeline.callbacks(of: app.id, scene: scene).dropFirst(start))
            return recorded.count >= expected.count || !expected.starts(with: recorded)
        }
        sceneCallbackCursor[app.id, default: [:]][scene] = start + recorded.count
        guard recorded != expected else { return }
        try await report(
            app, "scene \(scene.number) of \(app.id) did not receive the expected callbacks",
            comparison: ReportText.comparison(expected: expected.map(\.rawValue), recorded: recorded.map(\.rawValue)),
            at: caller
        )
    }

    /// Expects the broker to hold `scene` of `app` in `state`.
    public func expect(
        _ app: LifebusTestApp, scene: SceneID, state expected: SceneState, within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        var actual = SceneState.unattached
        try await poll(within: within) {
            actual = try await state(of: app, scene: scene)
            return actual == expected
        }
        guard actual != expected else { return }
        try await report(
            app, "scene \(scene.number) of \(app.id) is \(actual.rawValue), expected \(expected.rawValue)", at: caller)
    }

    /// Expects `app`'s `scenePhase` (of `scene`, or of the app when `nil`) to be `phase`.
    public func expect(
        _ app: LifebusTestApp, scene: SceneID? = nil, phase expected: ScenePhase, within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        var actual = ScenePhase.background
        try await poll(within: within) {
            if let scene {
                actual = try await scenePhase(of: app, scene: scene)
            } else {
                actual = try await scenePhase(of: app)
            }
            return actual == expected
        }
        guard actual != expected else { return }
        let subject = scene.map { "scene \($0.number) of \(app.id)" } ?? "\(app.id)"
        try await report(
            app, "\(subject)'s scenePhase is \(actual.rawValue), expected \(expected.rawValue)", at: caller)
    }

    /// Fires `event` and returns the scene of `app` that connected last.
    private func newScene(of app: LifebusTestApp, _ event: ControllerEvent) async throws -> SceneID {
        try await fire(event)
        guard let scene = timeline.connectedScenes(of: app.id).last else {
            throw LifebusTestBusError("no scene of \(app.id) connected after \(event)")
        }
        return scene
    }

    /// The sessions the broker keeps for `app`, with their scenes and states.
    private func sessions(of app: LifebusTestApp) async throws -> [SceneSessionEntry] {
        let status = try StatusResult(json: try await transport.request(LifebusMethod.status, .object([:])))
        return status.apps.first { $0.id == app.id.rawValue }?.scenes ?? []
    }
}

extension ControllerEvent {
    /// A launch of `app` opened with `url` (a deep link): a cold start hands it to the new scene's `willConnectTo`,
    /// a running app's active scene receives it in `openURLContexts`.
    public static func launch(_ app: AppID, url: String) -> ControllerEvent {
        .launch(app, options: SceneConnectionOptions(urlContexts: [url]))
    }

    /// A launch of `app` by a tapped notification whose response is `push` (JSON text).
    public static func launch(_ app: AppID, push: String) -> ControllerEvent {
        .launch(app, options: SceneConnectionOptions(notificationResponse: push))
    }
}

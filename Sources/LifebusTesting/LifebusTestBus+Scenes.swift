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
    ///
    /// - Parameters:
    ///   - app: An app that adopts scenes.
    ///   - options: What the new window is opened with; none by default.
    /// - Returns: The new scene.
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    @discardableResult
    public func openScene(_ app: LifebusTestApp, options: SceneConnectionOptions = .none) async throws -> SceneID {
        try await newScene(of: app, .scene(.open(app.id, options)))
    }

    /// The user swipes `scene` of `app` away in the switcher (`nil`: the whole app).
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - scene: The scene to close, or `nil` for every scene of the app.
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    public func closeScene(_ app: LifebusTestApp, _ scene: SceneID?) async throws {
        try await fire(.scene(.close(app.id, scene)))
    }

    /// The system disconnects the background `scene` of `app` to reclaim its memory: the app is asked for the
    /// scene's restoration payload, which the broker keeps with its session.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - scene: One of its scenes in the background.
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    public func reclaim(_ app: LifebusTestApp, scene: SceneID) async throws {
        try await fire(.scene(.reclaim(app.id, scene)))
    }

    /// The user reopens `session` of `app`, whose scene was disconnected: a new scene connects to the same session,
    /// handed its payload. Returns the new scene.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - session: A session whose scene was disconnected (``savedSessions(of:)`` lists those with a payload).
    /// - Returns: The new scene.
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    @discardableResult
    public func reconnect(_ app: LifebusTestApp, session: SceneSessionID) async throws -> SceneID {
        try await newScene(of: app, .scene(.reconnect(app.id, session)))
    }

    /// iPad: the user makes `scene` of `app` the active one of its foreground scenes.
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - scene: One of its foreground scenes.
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    public func focus(_ app: LifebusTestApp, scene: SceneID) async throws {
        try await fire(.scene(.focus(app.id, scene)))
    }

    /// The scene state the broker holds for `scene` of `app` (`unattached` for a scene it does not know, or one
    /// disconnected).
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - scene: One of its scenes.
    /// - Returns: The scene's state.
    /// - Throws: ``LifebusTestBusError`` when the broker does not answer.
    public func state(of app: LifebusTestApp, scene: SceneID) async throws -> SceneState {
        try await sessions(of: app).first { $0.scene == scene }?.state ?? .unattached
    }

    /// SwiftUI's `scenePhase` of `scene` of `app` (`SCENES.md` §3): `active`, `inactive` in the foreground but not
    /// active, `background` otherwise (a disconnected scene too).
    ///
    /// - Parameters:
    ///   - app: The app.
    ///   - scene: One of its scenes.
    /// - Returns: The scene's phase.
    /// - Throws: ``LifebusTestBusError`` when the broker does not answer.
    public func scenePhase(of app: LifebusTestApp, scene: SceneID) async throws -> ScenePhase {
        ScenePhase(try await state(of: app, scene: scene))
    }

    /// SwiftUI's `scenePhase` of `app`: `active` if any of its scenes is, `background` only when all are (or none is
    /// connected), `inactive` otherwise.
    ///
    /// - Parameter app: The app.
    /// - Returns: The app's phase over its scenes.
    /// - Throws: ``LifebusTestBusError`` when the broker does not answer.
    public func scenePhase(of app: LifebusTestApp) async throws -> ScenePhase {
        ScenePhase(aggregating: try await sessions(of: app).compactMap(\.state))
    }

    /// The sessions of `app` the broker keeps whose restoration payload it holds (saved by
    /// `stateRestorationActivity`), in id order.
    ///
    /// - Parameter app: The app.
    /// - Returns: The sessions with a kept payload, for ``reconnect(_:session:)``.
    /// - Throws: ``LifebusTestBusError`` when the broker does not answer.
    public func savedSessions(of app: LifebusTestApp) async throws -> [SceneSessionID] {
        try await sessions(of: app).filter(\.restoration).map(\.session)
    }

    /// Expects `scene` of `app` to have received exactly `callbacks`, in order, since it connected (or since the
    /// app's launch) or since the previous `expect(_:scene:callbacks:)` of it (which then starts after these).
    ///
    /// - Parameters:
    ///   - app: The app expected of.
    ///   - scene: Its scene, as ``openScene(_:options:)`` or the timeline names it.
    ///   - expected: The scene's callbacks, e.g. `[.sceneWillResignActive, .sceneDidEnterBackground]`.
    ///   - within: How long a live bus waits for the recording to match (5 s by default); in memory it looks once.
    ///   - fileID: The caller's file, where a failure is recorded; leave the default.
    ///   - filePath: The caller's file path, for XCTest's report; leave the default.
    ///   - line: The caller's line; leave the default.
    ///   - column: The caller's column; leave the default.
    /// - Throws: ``LifebusTestBusError`` outside a test when the expectation fails, or when the bus cannot read the
    ///   broker's record (a live broker that stopped answering).
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
    ///
    /// - Parameters:
    ///   - app: The app expected of.
    ///   - scene: Its scene.
    ///   - expected: The scene's state, e.g. `.foregroundActive`.
    ///   - within: How long a live bus waits for the recording to match (5 s by default); in memory it looks once.
    ///   - fileID: The caller's file, where a failure is recorded; leave the default.
    ///   - filePath: The caller's file path, for XCTest's report; leave the default.
    ///   - line: The caller's line; leave the default.
    ///   - column: The caller's column; leave the default.
    /// - Throws: ``LifebusTestBusError`` outside a test when the expectation fails, or when the bus cannot read the
    ///   broker's record (a live broker that stopped answering).
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
    ///
    /// - Parameters:
    ///   - app: The app expected of.
    ///   - scene: One of its scenes, or `nil` (the default) for the app's own phase.
    ///   - expected: The phase: `.active`, `.inactive` or `.background`.
    ///   - within: How long a live bus waits for the recording to match (5 s by default); in memory it looks once.
    ///   - fileID: The caller's file, where a failure is recorded; leave the default.
    ///   - filePath: The caller's file path, for XCTest's report; leave the default.
    ///   - line: The caller's line; leave the default.
    ///   - column: The caller's column; leave the default.
    /// - Throws: ``LifebusTestBusError`` outside a test when the expectation fails, or when the bus cannot read the
    ///   broker's record (a live broker that stopped answering).
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

/// Launches that open a scene with a URL or a notification response: the connection options of the
/// device's `launch(_:options:)`, said the way a test reads them.
extension ControllerEvent {
    /// A launch of `app` opened with `url` (a deep link): a cold start hands it to the new scene's `willConnectTo`,
    /// a running app's active scene receives it in `openURLContexts`; an app that does not use scenes finds a cold
    /// start's in `LaunchOptions.url`, and is sent `open(_:url:)` once in front.
    ///
    /// - Parameters:
    ///   - app: The app to launch.
    ///   - url: The URL, as text.
    /// - Returns: The event, for ``LifebusTestBus/fire(_:)``.
    public static func launch(_ app: AppID, url: String) -> ControllerEvent {
        .launch(app, options: SceneConnectionOptions(urlContexts: [url]))
    }

    /// A launch of `app` by a tapped notification whose response is `push` (JSON text): a cold start hands it to the
    /// new scene's `willConnectTo` (an app that does not use scenes: `LaunchOptions.remoteNotification`), and from
    /// `ios13` to `didReceiveNotificationResponse` too once in front; a running app is sent
    /// `didReceiveNotificationResponse` once in front.
    ///
    /// - Parameters:
    ///   - app: The app to launch.
    ///   - push: The notification response (JSON text).
    /// - Returns: The event, for ``LifebusTestBus/fire(_:)``.
    public static func launch(_ app: AppID, push: String) -> ControllerEvent {
        .launch(app, options: SceneConnectionOptions(notificationResponse: push))
    }
}

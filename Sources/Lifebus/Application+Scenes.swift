public import LifebusLifecycle
import LifebusProtocol

/// The scene side of the app (`SceneDelegate`): the scene callbacks' dispatch, the connected scenes and their
/// sessions as the broker told of them, the app-level notifications UIKit posts on the aggregate's edges, and SwiftUI's
/// `scenePhase` streams.
extension Application {
    /// The connected scenes, in id order.
    public var connectedScenes: [Scene] {
        scenes.values.sorted { $0.id < $1.id }
    }

    /// The sessions the app knows (connected or not), in id order: every session a scene connected to in this
    /// process and that was not discarded since.
    public var openSessions: [SceneSession] {
        sceneSessions.values.sorted { $0.persistentIdentifier < $1.persistentIdentifier }
    }

    /// The app's `scenePhase`: the most active of its scenes' phases (`background` without scenes).
    public var scenePhase: ScenePhase {
        ScenePhase(aggregating: scenes.values.map(\.state))
    }

    /// Runs the scene delegate's method for one scene callback (its state updated once the method returned, then the
    /// app's notification posted when the callback carries one); returns `stateRestorationActivity`'s payload.
    func deliverScene(_ callback: CallbackParams, to sceneDelegate: any SceneDelegate) async -> String? {
        guard let context = callback.scene else { return nil }
        var session = sceneSessions[context.session] ?? SceneSession(persistentIdentifier: context.session)
        if let restoration = context.restoration { session.stateRestorationActivity = restoration }
        sceneSessions[context.session] = session
        var scene = scenes[context.scene]
            ?? Scene(
                id: context.scene, session: session, state: context.sceneState,
                destructionConditions: options.destructionConditions)
        scene.session = session
        if scenes[scene.id] != nil { scenes[scene.id] = scene }  // a payload handed over after the connect
        var restoration: String?
        switch callback.callback {
        case .willConnectTo:
            scenes[scene.id] = scene
            await sceneDelegate.scene(scene, willConnectTo: session, options: context.options ?? .none)
        case .restoreInteractionState:
            if let activity = session.stateRestorationActivity {
                await sceneDelegate.scene(scene, restoreInteractionStateWith: activity)
            }
        case .sceneWillEnterForeground: await sceneDelegate.sceneWillEnterForeground(scene)
        case .sceneDidBecomeActive: await sceneDelegate.sceneDidBecomeActive(scene)
        case .sceneWillResignActive: await sceneDelegate.sceneWillResignActive(scene)
        case .sceneDidEnterBackground: await sceneDelegate.sceneDidEnterBackground(scene)
        case .stateRestorationActivity:
            restoration = await sceneDelegate.stateRestorationActivity(for: scene)
            sceneSessions[context.session]?.stateRestorationActivity = restoration
        case .sceneDidDisconnect: await sceneDelegate.sceneDidDisconnect(scene)
        case .openURLContexts:
            await sceneDelegate.scene(scene, openURLContexts: context.options?.urlContexts ?? [])
        default:
            break  // app-level callbacks carry no scene
        }
        sceneMoved(scene.id, to: callback.callback == .sceneDidDisconnect ? nil : context.sceneState)
        if let notification = context.posts { post(notification) }
        return restoration
    }

    /// `didDiscardSceneSessions`: the sessions are forgotten (their scenes are gone already).
    func discardSessions(_ ids: [SceneSessionID]) -> [SceneSession] {
        ids.map { sceneSessions.removeValue(forKey: $0) ?? SceneSession(persistentIdentifier: $0) }
    }

    /// A scene's new state (`nil`: disconnected): kept, and its phase and the app's told to their streams when they
    /// changed.
    func sceneMoved(_ id: SceneID, to state: SceneState?) {
        let appPhase = scenePhase
        let phase = scenes[id]?.phase
        if let state { scenes[id]?.state = state } else { scenes[id] = nil }
        let newPhase = scenes[id]?.phase
        for stream in phaseStreams where stream.scene == id {
            if let newPhase { if newPhase != phase { stream.continuation.yield(newPhase) } } else {
                stream.continuation.finish()
            }
        }
        if scenePhase != appPhase {
            for stream in phaseStreams where stream.scene == nil { stream.continuation.yield(scenePhase) }
        }
    }

    /// The process ended (or the broker went away): no scene is connected any more.
    func scenesEnded() {
        for id in Array(scenes.keys) { sceneMoved(id, to: nil) }
    }
}

/// App-level notifications (`UIApplication.willEnterForegroundNotification` and the three others) for a scene app:
/// posted on the edges of the app's aggregate state only (`SCENES.md` §1b), after the scene delegate's method that
/// crossed the edge returned and before the broker is answered. Observers run on the main actor in the order they
/// were added.
extension Application {
    /// Adds an observer of `notification`; keep the token to remove it (`removeObserver(_:)`).
    ///
    /// - Parameters:
    ///   - notification: The edge of the app's aggregate state to observe.
    ///   - handler: Runs on the main actor at each such edge.
    /// - Returns: The token that removes the observer (``Application/removeObserver(_:)``).
    @discardableResult
    public func addObserver(
        for notification: ApplicationNotification, _ handler: @escaping @MainActor () -> Void
    ) -> ObserverToken {
        nextObserverNumber += 1
        let token = ObserverToken(number: nextObserverNumber)
        notificationObservers.append((token, notification, handler))
        return token
    }

    func post(_ notification: ApplicationNotification) {
        for observer in notificationObservers where observer.notification == notification {
            observer.handler()
        }
    }
}

/// SwiftUI's `scenePhase` as streams: each yields the phase at once, then every change (`SCENES.md` §3).
extension Application {
    /// The app's phase: `active` if any scene is active, `background` only when every scene is (or none is
    /// connected), `inactive` otherwise.
    ///
    /// - Returns: A stream of the app's ``ScenePhase``: the current one first, then each change.
    public func scenePhases() -> AsyncStream<ScenePhase> {
        phaseStream(of: nil, first: scenePhase)
    }

    /// One scene's phase; the stream finishes when the scene disconnects (at once for a scene not connected).
    ///
    /// - Parameter scene: The scene whose phase to follow.
    /// - Returns: A stream of the scene's ``ScenePhase``: the current one first (none for a scene not connected), then
    ///   each change.
    public func scenePhases(of scene: SceneID) -> AsyncStream<ScenePhase> {
        phaseStream(of: scene, first: scenes[scene]?.phase)
    }

    private func phaseStream(of scene: SceneID?, first: ScenePhase?) -> AsyncStream<ScenePhase> {
        let (stream, continuation) = AsyncStream.makeStream(of: ScenePhase.self)
        guard let first else {
            continuation.finish()
            return stream
        }
        continuation.yield(first)
        nextObserverNumber += 1
        let token = ObserverToken(number: nextObserverNumber)
        phaseStreams.append((token, scene, continuation))
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.phaseStreams.removeAll { $0.token == token } }
        }
        return stream
    }
}

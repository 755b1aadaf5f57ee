import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// The scene moves the table rows (S…) do not show: what each scene callback carries (its scene, its state, the app
/// notification of an aggregate edge, options, payloads, sessions), the budgets, the seeded order, `status`'s view.
@Suite("scene moves")
struct SceneTests {
    static let scene = AppFlags(adoptsScenes: true)
    static let windows = AppFlags(adoptsScenes: true, supportsMultipleScenes: true)

    /// The scene callbacks sent since `start`, each with its context.
    static func sent(_ harness: Harness, since start: Int) -> [(LifecycleCallback, SceneCallbackContext?, Duration)] {
        harness.journal[start...].compactMap { action in
            if case .sendCallback(_, _, let callback, _, let budget, _, let context) = action {
                (callback, context, budget)
            } else {
                nil
            }
        }
    }

    @Test("a cold launch posts willEnterForeground and didBecomeActive with its scene's callbacks, nothing else")
    func coldLaunchPostsOnTheEdges() {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("A", Self.scene))
        let sent = Self.sent(harness, since: 0)
        #expect(sent.map(\.0) == [.didFinishLaunching, .configurationForConnecting, .willConnectTo,
                                  .sceneWillEnterForeground, .sceneDidBecomeActive])
        #expect(sent.map { $0.1?.posts } == [nil, nil, nil, .willEnterForeground, .didBecomeActive])
        #expect(sent[1].1?.sessions == [SceneSessionID(1)] && sent[1].1?.scene == nil)
        #expect(sent[2].1?.scene == SceneRef(scene: SceneID(1), session: SceneSessionID(1)))
        #expect(sent.map { $0.1?.sceneState } == [nil, nil, .unattached, .foregroundInactive, .foregroundActive])
        #expect(harness.posts == ["A willEnterForeground", "A didBecomeActive"])
    }

    @Test("of two scenes, one leaving the foreground posts nothing; the last one posts the app's edges")
    func onlyTheAggregatesEdgesPost() {
        var harness = Harness(profile: .ios13)
        harness.run(.connect("A", Self.windows))
        harness.run(.fire(.scene(.open("A", .none))))
        let before = harness.posts.count
        let start = harness.journal.count
        harness.run(.fire(.scene(.close("A", SceneID(1)))))  // ios13: resign (done at open), background, disconnect
        #expect(Self.sent(harness, since: start).map(\.0)
            == [.sceneDidEnterBackground, .sceneDidDisconnect, .didDiscardSceneSessions])
        #expect(harness.posts.count == before, "scene 2 is still active: no app-level notification")
        harness.run(.fire(.home))
        #expect(harness.posts.suffix(2) == ["A willResignActive", "A didEnterBackground"])
        #expect(harness.device.state(of: "A") == .suspended)
    }

    @Test("a cold start's URL reaches willConnectTo; a running app's reaches openURLContexts of its focused scene")
    func launchOptionsReachTheScene() {
        let url = SceneConnectionOptions(urlContexts: ["notes://42"])
        var harness = Harness(profile: .ios26)
        harness.run(.connect("A", Self.scene))
        harness.run(.fire(.terminate("A", byUser: false)))
        var start = harness.journal.count
        harness.run(.fire(.launch("A", options: url)))
        let connect = Self.sent(harness, since: start).first { $0.0 == .willConnectTo }
        #expect(connect?.1?.options == url)
        start = harness.journal.count
        harness.run(.fire(.launch("A", options: url)))
        let open = Self.sent(harness, since: start)
        #expect(open.map(\.0) == [.openURLContexts])
        #expect(open.first?.1?.options == url && open.first?.1?.sceneState == .foregroundActive)
        #expect(harness.device.state(of: "A") == .active)
    }

    @Test("a reclaimed scene's payload is kept and handed back at reconnect; restored from ios15 only",
          arguments: [Profile.ios13, .ios15, .ios27])
    func reclaimedPayloadComesBack(profile: Profile) {
        var harness = Harness(profile: profile)
        harness.run(.connect("A", Self.scene))
        harness.run(.restores("A", "{\"draft\":7}"))
        harness.run(.fire(.home))
        harness.run(.fire(.scene(.reclaim("A", SceneID(1)))))
        #expect(harness.device.sessions(of: "A") == [
            SceneSessionStatus(session: SceneSessionID(1), scene: nil, state: nil, hasRestoration: true),
        ])
        let start = harness.journal.count
        harness.run(.fire(.scene(.reconnect("A", SceneSessionID(1)))))
        let sent = Self.sent(harness, since: start)
        let restores = profile.restoresInteractionState
        #expect(sent.map(\.0) == (restores ? [.willConnectTo, .restoreInteractionState] : [.willConnectTo])
            + [.sceneWillEnterForeground, .sceneDidBecomeActive])
        #expect(sent[0].1?.restoration == "{\"draft\":7}")
        #expect(sent[0].1?.scene == SceneRef(scene: SceneID(2), session: SceneSessionID(1)))
        #expect(!sent.contains { $0.0 == .configurationForConnecting })
    }

    @Test("scene callbacks get 10 s; a launch's get no more than what is left of the 20 s scene launch")
    func sceneBudgets() {
        var harness = Harness(profile: .ios17)
        harness.run(.hold("A"))
        harness.run(.connect("A", Self.scene))
        harness.elapse(.seconds(15))
        harness.run(.release("A"))
        let sent = Self.sent(harness, since: 0)
        #expect(sent.first?.2 == .seconds(20))
        #expect(sent.dropFirst().allSatisfy { $0.2 == .seconds(5) }, "\(sent.map(\.2))")
        let start = harness.journal.count
        harness.run(.fire(.home))
        #expect(Self.sent(harness, since: start).allSatisfy { $0.2 == .seconds(10) })
    }

    @Test("a scene app launched into the background gets the 30 s of background time: a task left open is killed")
    func backgroundLaunchHasBackgroundTime() {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("A", AppFlags(launchInBackground: true, adoptsScenes: true)))
        #expect(harness.device.state(of: "A") == .suspended)
        harness.run(.hold("B"))
        harness.run(.connect("B", AppFlags(launchInBackground: true, adoptsScenes: true)))
        harness.run(.beginTask("B", 1))  // during didFinishLaunching
        harness.run(.release("B"))
        harness.elapse(.seconds(31))
        #expect(harness.describe(from: 0).suffix(3) == ["expiring B 1", "kill B backgroundTaskExpired",
                                                        "B - background→notRunning watchdog"])
    }

    @Test("under ios27 the launch of an app that does not adopt scenes is refused and its process killed")
    func ios27RefusesAnAppDelegateApp() {
        var harness = Harness(profile: .ios27)
        let id = harness.fire(.launch("A"))
        harness.pump()
        #expect(harness.journal.contains(.kill("A", reason: .sceneLifecycleRequired)))
        #expect(harness.journal.contains(.reject(Rejection(event: id, app: "A", reason: .sceneLifecycleRequired))))
        #expect(harness.device.state(of: "A") == .notRunning && harness.device.foregroundApp == nil)
    }

    @Test("the order of scenes moving alike follows the seed: the same seed, the same order")
    func seededOrderIsDeterministic() {
        func homeOrder(seed: UInt64) -> [SceneID] {
            var harness = Harness(DeviceConfiguration(profile: .ios17, sceneOrderSeed: seed))
            harness.run(.connect("A", Self.windows))
            for _ in 0..<3 { harness.run(.fire(.scene(.open("A", .none)))) }
            harness.run(.fire(.call(.ring)))
            harness.run(.fire(.call(.answer)))  // every scene enters the background, one at a time
            let entered = Self.sent(harness, since: 0).filter { $0.0 == .sceneDidEnterBackground }
            return entered.compactMap { $0.1?.scene?.scene }
        }
        let orders = (UInt64(0)..<8).map(homeOrder)
        #expect(orders.allSatisfy { Set($0) == Set((1...4).map { SceneID($0) }) })
        #expect((UInt64(0)..<8).map(homeOrder) == orders, "the same seed gives the same order")
        #expect(Set(orders.map { $0.map(\.number) }).count > 1, "the seed changes the order")
    }
}

import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// What the background rows (B…) do not show: what the background-execution callbacks carry (the launch reason, the
/// task, the push payload), a scene app's background launch connecting no scene and its resume sending no
/// `didEnterBackground`, the fetch result journaled, the status view of tasks and protected data.
@Suite("background execution")
struct BackgroundExecutionTests {
    static let permits = AppFlags(permittedTaskIdentifiers: ["refresh"])
    static let scenePermits = AppFlags(adoptsScenes: true, permittedTaskIdentifiers: ["refresh"])

    /// The callbacks sent since `start`, each with its context.
    static func sent(_ harness: Harness, since start: Int) -> [(LifecycleCallback, SceneCallbackContext?)] {
        harness.journal[start...].compactMap { action in
            if case .sendCallback(_, _, let callback, _, _, _, let context) = action {
                (callback, context)
            } else {
                nil
            }
        }
    }

    /// A launch that registers `refresh`, then a submitted request for it.
    static func launchedWithRefresh(_ profile: Profile, _ flags: AppFlags) -> Harness {
        var harness = Harness(profile: profile)
        for step: Step in [.hold("A"), .connect("A", flags), .registerTask("A", "refresh"), .release("A"),
                           .submitTask("A", "refresh", .appRefresh, after: .seconds(60))] {
            harness.run(step)
        }
        return harness
    }

    @Test("a scene app launched for a task connects no scene and gets no willEnterForeground")
    func aSceneAppsBackgroundLaunchConnectsNoScene() throws {
        var harness = Self.launchedWithRefresh(.ios17, Self.scenePermits)
        harness.run(.fire(.terminate("A", byUser: false)))
        let start = harness.journal.count
        harness.run(.fire(.backgroundTask("A", identifier: "refresh", action: .run)))
        let sent = Self.sent(harness, since: start)
        #expect(sent.map(\.0) == [.didFinishLaunching, .performBackgroundTask])
        #expect(sent[0].1?.launchReason == .backgroundTask)
        #expect(sent[1].1?.task?.identifier == "refresh" && sent[1].1?.task?.kind == .appRefresh)
        #expect(harness.device.sessions(of: "A").allSatisfy { $0.scene == nil })
        #expect(harness.device.state(of: "A") == .background)
        let status = harness.device.backgroundTasks(of: "A")
        #expect(status.map(\.state) == [.running])
        #expect(status.first?.deadline == harness.now + .seconds(30))
    }

    @Test("a suspended scene app resumed for a push or a task is not told didEnterBackground; an app-delegate app is")
    func onlyAnAppDelegateAppResumedInTheBackgroundIsToldDidEnterBackground() {
        for (flags, first) in [(Self.scenePermits, [LifecycleCallback]()), (Self.permits, [.didEnterBackground])] {
            var harness = Self.launchedWithRefresh(.ios17, flags)
            harness.run(.fire(.home))
            var start = harness.journal.count
            harness.run(.fire(.push("A", PushNotification(contentAvailable: true, alert: false))))
            #expect(Self.sent(harness, since: start).map(\.0) == first + [.didReceiveRemoteNotification])
            #expect(harness.device.state(of: "A") == .suspended)
            start = harness.journal.count
            harness.run(.fire(.backgroundTask("A", identifier: "refresh", action: .run)))
            #expect(Self.sent(harness, since: start).map(\.0) == first + [.performBackgroundTask])
        }
    }

    @Test("the background budget restarts at the didEnterBackground that follows a background launch")
    func theBackgroundBudgetRestartsAtTheLaunchsDidEnterBackground() throws {
        var harness = Harness(profile: .ios13)  // 30 s of background time
        harness.run(.connect("A"))
        harness.run(.fire(.terminate("A", byUser: false)))
        harness.run(.hold("A"))
        harness.run(.fire(.push("A", PushNotification(contentAvailable: true, alert: false))))
        harness.run(.elapse(.seconds(10)))  // the launch takes 10 s of its 20
        func answer(_ expected: LifecycleCallback, _ harness: inout Harness) throws {
            let snapshot = try #require(harness.device.snapshot(of: "A"))
            #expect(snapshot.outstandingCallback == expected)
            let id = try #require(snapshot.outstandingCallbackID)
            harness.input(.callbackAnswered("A", id, handlerDuration: nil))
        }
        try answer(.didFinishLaunching, &harness)
        try answer(.didEnterBackground, &harness)
        harness.input(.backgroundTaskBegan("A", taskID: 1))  // while the push is handled
        try answer(.didReceiveRemoteNotification, &harness)
        let start = harness.journal.count
        harness.run(.elapse(.seconds(24)))  // 34 s: the launch's own budget would have warned at 25 s
        #expect(!harness.journal[start...].contains(.backgroundTaskExpiring("A", taskID: 1)))
        harness.run(.elapse(.seconds(1)))  // 35 s: 5 s before the 30 s from the didEnterBackground at 10 s
        #expect(harness.journal[start...].contains(.backgroundTaskExpiring("A", taskID: 1)))
        #expect(harness.device.state(of: "A") == .background)
    }

    @Test("a scene app launched for a task later comes to the front with its scene callbacks' own budgets")
    func aSceneAppLaunchedForATaskLaterLaunchesNormally() {
        var harness = Self.launchedWithRefresh(.ios26, Self.scenePermits)
        harness.run(.fire(.terminate("A", byUser: false)))
        harness.run(.fire(.backgroundTask("A", identifier: "refresh", action: .run)))
        harness.run(.completeTask("A", "refresh", success: true))
        harness.run(.elapse(.seconds(60)))
        let start = harness.journal.count
        harness.run(.fire(.launch("A")))
        let budgets = harness.journal[start...].compactMap { action -> Duration? in
            if case .sendCallback(_, _, _, _, let budget, _, _) = action { budget } else { nil }
        }
        #expect(!budgets.isEmpty && budgets.allSatisfy { $0 == .seconds(10) }, "\(budgets)")
        #expect(harness.device.state(of: "A") == .active)
    }

    @Test("status shows a submitted task pending with its earliest begin date")
    func statusShowsPendingTasks() {
        let harness = Self.launchedWithRefresh(.ios13, Self.permits)
        let status = harness.device.backgroundTasks(of: "A")
        #expect(status.map(\.state) == [.pending])
        #expect(status.first?.request.earliestBegin == harness.now + .seconds(60))
        #expect(harness.journal.contains(.taskRecord(TaskRecord(
            app: "A", identifier: "refresh", kind: .appRefresh, event: .submitted, at: harness.now))))
    }

    @Test("a silent push carries its payload, and its completion handler's result is journaled")
    func aSilentPushCarriesItsPayloadAndResult() throws {
        var harness = Harness(profile: .ios26)
        harness.run(.connect("A", AppFlags(backgroundModes: ["audio"])))  // running: no didEnterBackground first
        harness.run(.fire(.home))
        harness.run(.hold("A"))
        let start = harness.journal.count
        let payload = #"{"aps":{"content-available":1}}"#
        harness.run(.fire(.push("A", PushNotification(contentAvailable: true, alert: false, payload: payload))))
        #expect(Self.sent(harness, since: start).last?.1?.payload == payload)
        let id = try #require(harness.device.snapshot(of: "A")?.outstandingCallbackID)
        harness.held.remove("A")
        harness.input(.callbackAnswered("A", id, handlerDuration: nil, fetchResult: .newData))
        #expect(harness.journal.contains(.pushRecord(PushRecord(
            app: "A", event: .answered, result: .newData, payload: payload, at: harness.now))))
    }

    @Test("protected data is available until the lock's delay has passed, and again at the wake")
    func protectedDataFollowsTheLock() {
        var harness = Harness(profile: .ios15)
        harness.run(.connect("A"))
        harness.run(.fire(.sleep))
        #expect(harness.device.isProtectedDataAvailable)
        harness.run(.elapse(.seconds(10)))
        #expect(!harness.device.isProtectedDataAvailable)
        #expect(harness.journal.last == .protectedData(available: false))
        harness.run(.fire(.wake))
        #expect(harness.device.isProtectedDataAvailable)
    }

    @Test("profiles without data protection never lock protected data")
    func olderProfilesKeepProtectedData() {
        var harness = Harness(profile: .ios7)
        harness.run(.connect("A"))
        harness.run(.fire(.sleep))
        harness.run(.elapse(.seconds(60)))
        #expect(harness.device.isProtectedDataAvailable)
        #expect(!harness.journal.contains(.protectedData(available: false)))
    }
}

import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// Protected-data notifications queued for a suspended app (`Protocol/lifecycle.md` B48–B51) where the rows do not
/// reach: the knob turned off (the behaviour before it), a scene app brought back, a lock it slept through within
/// the delay, and the knob's default.
@Suite("protected data told to a suspended app when it runs again")
struct QueuedProtectedDataTests {
    private static let silent = PushNotification(contentAvailable: true, alert: false)

    /// The protected-data callbacks sent since `start`, with the state each was sent in.
    private static func told(_ harness: Harness, since start: Int) -> [String] {
        harness.journal[start...].compactMap { action in
            guard case .sendCallback(_, _, let callback, let state, _, _, _) = action,
                callback == .protectedDataWillBecomeUnavailable || callback == .protectedDataDidBecomeAvailable
            else { return nil }
            return "\(callback) \(state)"
        }
    }

    /// A suspended A, the device locked (and protected data gone), resumed by a silent push, suspended again, the
    /// device unlocked, then brought back by the user.
    private static func lockPushWakeLaunch(_ configuration: DeviceConfiguration) -> [String] {
        var harness = Harness(configuration)
        harness.run(.connect("A"))
        harness.run(.fire(.home))
        let start = harness.journal.count
        harness.run(.fire(.sleep))
        harness.run(.elapse(.seconds(10)))
        harness.run(.fire(.push("A", silent)))
        harness.run(.fire(.wake))
        harness.run(.fire(.launch("A")))
        #expect(harness.violations.isEmpty, "\(harness.violations)")
        return told(harness, since: start)
    }

    @Test("on by default where protected data locks, and only there", arguments: Profile.allCases)
    func theKnobFollowsTheProfile(_ profile: Profile) {
        let configuration = DeviceConfiguration(profile: profile)
        #expect(configuration.queuesProtectedDataNotifications == (profile.protectedDataLockDelay != nil))
        #expect(!DeviceConfiguration(profile: profile, knobs: DeviceKnobs(queuesProtectedDataNotifications: false))
            .queuesProtectedDataNotifications)
    }

    @Test("knob on: the push hears the lock, the user's return the unlock; off: the suspended app hears neither")
    func theKnobOffIsTheBehaviourBeforeIt() {
        #expect(Self.lockPushWakeLaunch(DeviceConfiguration(profile: .ios17))
            == ["protectedDataWillBecomeUnavailable background", "protectedDataDidBecomeAvailable inactive"])
        let missed = DeviceKnobs(queuesProtectedDataNotifications: false)
        #expect(Self.lockPushWakeLaunch(DeviceConfiguration(profile: .ios17, knobs: missed)).isEmpty)
    }

    @Test("a scene app brought back hears the net change after sceneWillEnterForeground, before sceneDidBecomeActive")
    func aSceneAppHearsItBetweenItsForegroundCallbacks() {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("A", AppFlags(adoptsScenes: true)))
        harness.run(.fire(.home))
        harness.run(.fire(.sleep))
        harness.run(.fire(.push("A", Self.silent)))  // told: unavailable
        harness.run(.fire(.wake))
        let start = harness.journal.count
        harness.run(.fire(.launch("A")))
        let sent = harness.journal[start...].compactMap { action -> LifecycleCallback? in
            if case .sendCallback(_, _, let callback, _, _, _, _) = action { callback } else { nil }
        }
        #expect(sent == [.sceneWillEnterForeground, .protectedDataDidBecomeAvailable, .sceneDidBecomeActive])
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("a lock and an unlock within the delay, slept through, is no change: the push hears nothing")
    func aLockWithinTheDelaySleptThroughIsNoChange() {
        var harness = Harness(profile: .ios13)
        harness.run(.connect("A"))
        harness.run(.fire(.home))
        harness.run(.fire(.sleep))
        harness.run(.elapse(.seconds(5)))
        harness.run(.fire(.wake))
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.silent)))
        #expect(Self.told(harness, since: start).isEmpty)
        #expect(harness.describe(from: start).contains("push A answered noData"))
    }

    @Test("an app launched into the background while locked reads the lock: told nothing then, the unlock at the wake")
    func aLaunchWhileLockedReadsTheLock() {
        var harness = Harness(profile: .ios15)
        harness.run(.connect("A", AppFlags(backgroundModes: ["audio"])))
        harness.run(.fire(.terminate("A", byUser: false)))
        harness.run(.fire(.sleep))
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.silent)))  // launched into the background, and kept running (audio)
        #expect(harness.device.state(of: "A") == .background)
        harness.run(.fire(.wake))
        #expect(Self.told(harness, since: start) == ["protectedDataDidBecomeAvailable background"])
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("a reset owes no app a notification: the app told at the lock before it is told again at the next lock")
    func aResetForgetsWhatTheAppsHeard() {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("A", AppFlags(backgroundModes: ["audio"])))
        harness.run(.fire(.sleep))
        harness.run(.fire(.reset))
        let start = harness.journal.count
        harness.run(.fire(.sleep))
        #expect(Self.told(harness, since: start) == ["protectedDataWillBecomeUnavailable background"])
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }
}

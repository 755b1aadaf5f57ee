import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// A scene app launched behind the lock while protected data is gone (`Protocol/lifecycle.md` S45, S46, "Data
/// protection"): no scene connects until the unlock, and the scene that connects then is handed its session's payload
/// — by `willConnectTo`, and by `restoreInteractionState` where the profile has it — which the rows' journals, that
/// name callbacks and not what they carry, do not show.
@Suite("a session's payload kept through a locked launch reaches the scene that connects after the unlock")
struct LockedLaunchRestorationTests {
    private static let payload = "{\"note\":1}"

    /// A's session 1 kept `payload`, A ended, the device locked and its protected data gone.
    private static func lockedWithPayload(_ profile: Profile) -> Harness {
        var harness = Harness(profile: profile)
        harness.run(.connect("A", AppFlags(adoptsScenes: true)))
        harness.run(.restores("A", payload))
        harness.run(.fire(.home))
        harness.run(.fire(.scene(.reclaim("A", SceneID(1)))))
        harness.run(.fire(.terminate("A", byUser: false)))
        harness.run(.fire(.sleep))
        harness.run(.elapse(.seconds(10)))
        #expect(!harness.device.isProtectedDataAvailable)
        return harness
    }

    /// Each callback sent since `start` with the payload it carried (`-` for none).
    private static func handed(_ harness: Harness, since start: Int) -> [String] {
        harness.journal[start...].compactMap { action in
            guard case .sendCallback(_, _, let callback, _, _, _, let context) = action else { return nil }
            return "\(callback) \(context?.restoration ?? "-")"
        }
    }

    /// What the connect after the unlock hands the scene, in order, under `profile`.
    private static func connectAfterTheUnlock(_ profile: Profile) -> [String] {
        let restores = profile.restoresInteractionState ? ["restoreInteractionState \(payload)"] : []
        return ["willConnectTo \(payload)", "protectedDataDidBecomeAvailable -"] + restores
            + ["sceneWillEnterForeground -", "sceneDidBecomeActive -"]
    }

    @Test("S45: a silent push launches A behind the lock, no scene; the launch after the unlock hands the payload",
          arguments: [Profile.ios13, .ios15, .ios27])
    func aBackgroundLaunchWhileLockedLeavesThePayloadForTheUnlock(_ profile: Profile) {
        var harness = Self.lockedWithPayload(profile)
        let start = harness.journal.count
        harness.run(.fire(.push("A", PushNotification(contentAvailable: true, alert: false))))
        harness.run(.fire(.wake))
        #expect(Self.handed(harness, since: start) == ["didFinishLaunching -", "didReceiveRemoteNotification -"])
        let unlocked = harness.journal.count
        harness.run(.fire(.launch("A")))
        #expect(Self.handed(harness, since: unlocked) == Self.connectAfterTheUnlock(profile))
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("S46: A connects behind the lock, no scene; the wake connects its scene with the payload",
          arguments: [Profile.ios13, .ios15, .ios27])
    func aConnectWhileLockedConnectsTheSceneAtTheUnlock(_ profile: Profile) {
        var harness = Self.lockedWithPayload(profile)
        let start = harness.journal.count
        harness.run(.connect("A", AppFlags(adoptsScenes: true)))
        #expect(Self.handed(harness, since: start) == ["didFinishLaunching -"])
        let unlocked = harness.journal.count
        harness.run(.fire(.wake))
        #expect(Self.handed(harness, since: unlocked) == Self.connectAfterTheUnlock(profile))
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }
}

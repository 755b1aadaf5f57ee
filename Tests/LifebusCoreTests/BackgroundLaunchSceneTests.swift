@testable import LifebusCore
import LifebusLifecycle
import LifecycleContract
import PropertyBased
import Testing

/// The knob `connectsSceneAtBackgroundLaunch` (`Protocol/lifecycle.md` S47–S52): off by default under every profile;
/// on, a scene app launched into the background connects one scene there before the event's handler, and a payload
/// withheld behind the lock reaches the scene after the unlock — what each callback carries, which the rows' journals
/// (callbacks, not payloads) do not show.
@Suite("a scene connected at a background launch, its payload withheld behind the lock")
struct BackgroundLaunchSceneTests {
    private static let payload = "{\"note\":1}"
    private static let silent = PushNotification(contentAvailable: true, alert: false)
    private static let scene = AppFlags(adoptsScenes: true)
    private static let connects = DeviceKnobs(connectsSceneAtBackgroundLaunch: true)

    private static func knobOn(_ profile: Profile) -> Harness {
        Harness(DeviceConfiguration(profile: profile, knobs: Self.connects))
    }

    /// A's session 1 kept `payload`, A ended by the system; with `locked`, the device locked and its data gone.
    private static func endedWithPayload(_ harness: inout Harness, locked: Bool) {
        harness.run(.connect("A", scene))
        harness.run(.restores("A", payload))
        harness.run(.fire(.home))
        harness.run(.fire(.scene(.reclaim("A", SceneID(1)))))
        harness.run(.fire(.terminate("A", byUser: false)))
        if locked {
            harness.run(.fire(.sleep))
            harness.run(.elapse(.seconds(10)))
        }
    }

    /// Each callback sent since `start` with the payload it carried (`-` for none).
    private static func handed(_ harness: Harness, since start: Int) -> [String] {
        harness.journal[start...].compactMap { action in
            guard case .sendCallback(_, _, let callback, _, _, _, let context) = action else { return nil }
            return "\(callback) \(context?.restoration ?? "-")"
        }
    }

    @Test("the knob is off under every profile, and a configuration turns it on", arguments: Profile.allCases)
    func theKnobIsOffByDefault(_ profile: Profile) {
        #expect(!profile.connectsSceneAtBackgroundLaunch)
        #expect(!DeviceConfiguration(profile: profile).connectsSceneAtBackgroundLaunch)
        #expect(DeviceConfiguration(profile: profile, knobs: Self.connects)
            .connectsSceneAtBackgroundLaunch)
    }

    @Test("S48: unlocked, the push launch connects the session used most recently with its payload",
          arguments: [Profile.ios13, .ios15, .ios27])
    func anUnlockedPushLaunchConnectsWithThePayload(_ profile: Profile) {
        var harness = Self.knobOn(profile)
        Self.endedWithPayload(&harness, locked: false)
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.silent)))
        let restores = profile.restoresInteractionState ? ["restoreInteractionState \(Self.payload)"] : []
        #expect(Self.handed(harness, since: start) == ["didFinishLaunching -", "willConnectTo \(Self.payload)"]
            + restores + ["sceneDidEnterBackground -", "didReceiveRemoteNotification -"])
        #expect(harness.violations.isEmpty, "\(harness.violations)")
        #expect(harness.device.invariantViolations.isEmpty)
    }

    @Test("a first background launch with no session configures a new one, and the user's launch brings it up",
          arguments: [Profile.ios13, .ios27])
    func aFirstBackgroundLaunchConfiguresANewSession(_ profile: Profile) {
        var harness = Self.knobOn(profile)
        harness.run(.connect("A", AppFlags(launchInBackground: true, adoptsScenes: true)))
        #expect(Self.handed(harness, since: 0) == [
            "didFinishLaunching -", "configurationForConnecting -", "willConnectTo -", "sceneDidEnterBackground -",
        ])
        #expect(harness.situation == "A=suspended A.s1=1:background front=-")
        let start = harness.journal.count
        harness.run(.fire(.launch("A")))
        #expect(Self.handed(harness, since: start) == ["sceneWillEnterForeground -", "sceneDidBecomeActive -"])
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("a launch long after a background launch gives the scene callbacks their own budgets",
          arguments: [false, true])
    func aBackgroundLaunchStartsNoSceneLaunchBudget(_ connects: Bool) {
        let knobs = DeviceKnobs(connectsSceneAtBackgroundLaunch: connects)
        var harness = Harness(DeviceConfiguration(profile: .ios15, knobs: knobs))
        harness.run(.connect("A", AppFlags(launchInBackground: true, adoptsScenes: true)))
        harness.run(.elapse(.seconds(60)))
        let start = harness.journal.count
        harness.run(.fire(.launch("A")))
        let budgets = harness.journal[start...].compactMap { action -> Duration? in
            guard case .sendCallback(_, _, _, _, let budget, _, _) = action else { return nil }
            return budget
        }
        #expect(budgets.count == (connects ? 2 : 4))
        #expect(budgets.allSatisfy { $0 > .zero }, "\(budgets)")
    }

    @Test("sessions discarded while A was not running are announced before the background connect")
    func discardsComeFirst() {
        var harness = Self.knobOn(.ios17)
        harness.run(.connect("A", AppFlags(adoptsScenes: true, supportsMultipleScenes: true)))
        harness.run(.fire(.scene(.open("A", .none))))
        harness.run(.fire(.home))
        harness.run(.fire(.scene(.close("A", SceneID(2)))))  // suspended: told at the next launch (S23)
        harness.run(.fire(.terminate("A", byUser: false)))
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.silent)))
        #expect(Array(Self.handed(harness, since: start).prefix(3)) == [
            "didFinishLaunching -", "didDiscardSceneSessions -", "willConnectTo -",
        ])
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("S50: behind the lock the payload is withheld, and handed over when A runs again after the unlock",
          arguments: [Profile.ios13, .ios15, .ios27])
    func aLockedPushLaunchWithholdsThePayloadUntilTheLaunch(_ profile: Profile) throws {
        var harness = Self.knobOn(profile)
        Self.endedWithPayload(&harness, locked: true)
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.silent)))
        #expect(Self.handed(harness, since: start) == [
            "didFinishLaunching -", "willConnectTo -", "sceneDidEnterBackground -", "didReceiveRemoteNotification -",
        ])
        let session = try #require(harness.device.apps.first?.scenes.sessions.first)
        #expect(session.restorationWithheld && !session.restorePending)
        harness.run(.fire(.wake))
        let unlocked = harness.journal.count
        harness.run(.fire(.launch("A")))
        let expected = profile.restoresInteractionState
            ? ["sceneWillEnterForeground -", "protectedDataDidBecomeAvailable -",
               "restoreInteractionState \(Self.payload)", "sceneDidBecomeActive -"]
            : ["sceneWillEnterForeground \(Self.payload)", "protectedDataDidBecomeAvailable -",
               "sceneDidBecomeActive -"]
        #expect(Self.handed(harness, since: unlocked) == expected)
        #expect(harness.device.apps.first?.scenes.sessions.first?.restorationWithheld == false)
        #expect(harness.violations.isEmpty, "\(harness.violations)")
        #expect(harness.device.invariantViolations.isEmpty)
    }

    @Test("a process connecting behind the lock in front connects its scene there; the wake brings that scene up",
          arguments: [Profile.ios13, .ios15])
    func aConnectBehindTheLockBringsTheSameSceneUpAtTheWake(_ profile: Profile) {
        var harness = Self.knobOn(profile)
        Self.endedWithPayload(&harness, locked: true)
        let start = harness.journal.count
        harness.run(.connect("A", Self.scene))
        #expect(Self.handed(harness, since: start) == [
            "didFinishLaunching -", "willConnectTo -", "sceneDidEnterBackground -",
        ])
        let unlocked = harness.journal.count
        harness.run(.fire(.wake))
        let expected = profile.restoresInteractionState
            ? ["sceneWillEnterForeground -", "protectedDataDidBecomeAvailable -",
               "restoreInteractionState \(Self.payload)", "sceneDidBecomeActive -"]
            : ["sceneWillEnterForeground \(Self.payload)", "protectedDataDidBecomeAvailable -",
               "sceneDidBecomeActive -"]
        #expect(Self.handed(harness, since: unlocked) == expected)
        #expect(harness.situation == "A=active A.s1=2:foregroundActive+saved front=A")
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("with protected-data notifications missed, the payload is handed over by the profile's route all the same",
          arguments: [Profile.ios13, .ios15, .ios27])
    func aMissedUnlockHandsThePayloadOverByTheProfilesRoute(_ profile: Profile) {
        let knobs = DeviceKnobs(queuesProtectedDataNotifications: false, connectsSceneAtBackgroundLaunch: true)
        var harness = Harness(DeviceConfiguration(profile: profile, knobs: knobs))
        Self.endedWithPayload(&harness, locked: true)
        harness.run(.fire(.push("A", Self.silent)))
        harness.run(.fire(.wake))
        let unlocked = harness.journal.count
        harness.run(.fire(.launch("A")))
        let expected = profile.restoresInteractionState
            ? ["sceneWillEnterForeground -", "restoreInteractionState \(Self.payload)", "sceneDidBecomeActive -"]
            : ["sceneWillEnterForeground \(Self.payload)", "sceneDidBecomeActive -"]
        #expect(Self.handed(harness, since: unlocked) == expected)
        #expect(harness.device.apps.first?.scenes.sessions.first?.restorationWithheld == false)
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    /// S52: the payload withheld at a push launch behind the lock; the device woken and locked again while A slept,
    /// so that A, which heard the lock at its launch, is owed no net change; a push at once, protected data still
    /// available.
    private static func relockedWithWithheldPayload(_ profile: Profile, queues: Bool) -> Harness {
        let knobs = DeviceKnobs(queuesProtectedDataNotifications: queues, connectsSceneAtBackgroundLaunch: true)
        var harness = Harness(DeviceConfiguration(profile: profile, knobs: knobs))
        endedWithPayload(&harness, locked: true)
        harness.run(.fire(.push("A", silent)))
        harness.run(.fire(.wake))
        harness.run(.fire(.sleep))
        return harness
    }

    @Test("S52: a push while protected data is available hands the withheld payload over, whatever A last heard",
          arguments: [Profile.ios13, .ios15, .ios17, .ios27], [true, false])
    func aPushWithTheDataAvailableHandsTheWithheldPayloadOver(_ profile: Profile, queues: Bool) throws {
        var harness = Self.relockedWithWithheldPayload(profile, queues: queues)
        let start = harness.journal.count
        harness.run(.fire(.push("A", Self.silent)))
        let restores = profile.restoresInteractionState ? ["restoreInteractionState \(Self.payload)"] : []
        #expect(Self.handed(harness, since: start) == restores + ["didReceiveRemoteNotification -"])
        let session = try #require(harness.device.apps.first?.scenes.sessions.first)
        #expect(session.restorationWithheld == !profile.restoresInteractionState, "ios13: the next scene callback's")
        #expect(!session.restorePending)
        #expect(harness.violations.isEmpty, "\(harness.violations)")
        #expect(harness.device.invariantViolations.isEmpty, "\(harness.device.invariantViolations)")
    }

    @Test("S52 before ios15: the payload rides on the scene's next callback sent with protected data available",
          arguments: [true, false])
    func beforeIOS15TheNextSceneCallbackWithTheDataCarriesIt(queues: Bool) {
        var harness = Self.relockedWithWithheldPayload(.ios13, queues: queues)
        harness.run(.fire(.push("A", Self.silent)))
        harness.run(.elapse(.seconds(10)))  // the data goes again: nothing was handed over
        harness.run(.fire(.wake))
        let unlocked = harness.journal.count
        harness.run(.fire(.launch("A")))
        #expect(Self.handed(harness, since: unlocked).first == "sceneWillEnterForeground \(Self.payload)")
        #expect(harness.device.apps.first?.scenes.sessions.first?.restorationWithheld == false)
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test(
        "the wake's front app, running behind the lock, restores before its scene comes up and hears the unlock after",
        arguments: [Profile.ios13, .ios15])
    func aRunningFrontAppRestoresAtTheWakesFirstStep(_ profile: Profile) {
        var harness = Self.knobOn(profile)
        Self.endedWithPayload(&harness, locked: true)
        harness.run(.connect("A", AppFlags(backgroundModes: ["audio"], adoptsScenes: true)))
        #expect(harness.situation.hasPrefix("A=background A.s1=2:background"), "\(harness.situation)")
        let unlocked = harness.journal.count
        harness.run(.fire(.wake))
        let expected = profile.restoresInteractionState
            ? ["restoreInteractionState \(Self.payload)", "sceneWillEnterForeground -", "sceneDidBecomeActive -",
               "protectedDataDidBecomeAvailable -"]
            : ["sceneWillEnterForeground \(Self.payload)", "sceneDidBecomeActive -",
               "protectedDataDidBecomeAvailable -"]
        #expect(Self.handed(harness, since: unlocked) == expected)
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("a scene reclaimed before the unlock hands nothing over; its session keeps the payload")
    func aSceneGoneBeforeTheUnlockHandsNothingOver() throws {
        var harness = Self.knobOn(.ios15)
        Self.endedWithPayload(&harness, locked: true)
        harness.run(.fire(.push("A", Self.silent)))
        harness.run(.fire(.scene(.reclaim("A", SceneID(2)))))
        let session = try #require(harness.device.apps.first?.scenes.sessions.first)
        #expect(session.scene == nil && !session.restorationWithheld && session.restoration == Self.payload)
        let start = harness.journal.count
        harness.run(.fire(.wake))
        #expect(Self.handed(harness, since: start).isEmpty)
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("a corrupted withheld payload or background connect is caught")
    func corruptionsAreCaught() {
        var harness = Self.knobOn(.ios15)
        Self.endedWithPayload(&harness, locked: false)
        #expect(harness.device.invariantViolations.isEmpty)
        let corruptions: [(String, (inout SceneBook) -> Void)] = [
            ("a withheld payload with no scene", { $0.sessions[0].restorationWithheld = true }),
            ("a background connect of no session", { $0.connectingInBackground = SceneSessionID(9) }),
            ("a background connect of an app not running", { $0.connectingInBackground = $0.sessions[0].id }),
        ]
        for (what, corrupt) in corruptions {
            var device = harness.device
            corrupt(&device.apps[0].scenes)
            #expect(!device.invariantViolations.isEmpty, "\(what) is not caught")
        }
    }

    @Test("a payload withheld or a background connect without the knob, or a payload withheld and pending, is caught")
    func knobAndHandOverCorruptionsAreCaught() {
        var off = Harness(profile: .ios15)
        off.run(.connect("A", Self.scene))  // A active, scene 1 connected
        var on = Self.knobOn(.ios15)
        on.run(.connect("A", Self.scene))
        #expect(off.device.invariantViolations.isEmpty && on.device.invariantViolations.isEmpty)
        let corruptions: [(String, Harness, String, (inout SceneSessionRecord) -> Void, Bool)] = [
            ("a payload withheld without the knob", off, "withholds a payload without",
             { $0.restoration = Self.payload; $0.restorationWithheld = true }, false),
            ("a background connect without the knob", off, "into the background without", { _ in }, true),
            ("a payload withheld and pending", on, "handed over twice",
             { $0.restoration = Self.payload; $0.restorationWithheld = true; $0.restorePending = true }, false),
        ]
        for (what, harness, message, corrupt, connects) in corruptions {
            var device = harness.device
            corrupt(&device.apps[0].scenes.sessions[0])
            if connects {
                device.apps[0].scenes.connectingInBackground = device.apps[0].scenes.sessions[0].id
            }
            let violations = device.invariantViolations
            #expect(violations.count == 1 && violations.allSatisfy { $0.contains(message) }, "\(what): \(violations)")
        }
    }

    @Test("every invariant holds with the knob on, silent pushes among the scene events, notifications queued or not",
          arguments: [Profile.ios13, .ios15, .ios27], [true, false])
    func invariantsHoldWithTheKnob(profile: Profile, queues: Bool) async {
        let knobs = DeviceKnobs(queuesProtectedDataNotifications: queues, connectsSceneAtBackgroundLaunch: true)
        await propertyCheck(count: 100, input: Gen.int(in: 0...4095).array(of: 1...80)) { numbers in
            var harness = Harness(DeviceConfiguration(profile: profile, knobs: knobs))
            var trace: [String] = []
            for number in numbers {
                let app = SceneInvariantTests.apps[number % SceneInvariantTests.apps.count].0
                let step = number % 8 == 7 ? .fire(.push(app, Self.silent)) : SceneInvariantTests.step(number / 8)
                trace.append(step.description)
                harness.run(step)
                let problems = harness.device.invariantViolations + harness.violations
                #expect(problems.isEmpty, "after \(trace): \(problems)")
                if !problems.isEmpty {
                    return
                }
            }
        }
    }
}

import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// The held push and the force-quit mark beyond rows B42–B45 (`Protocol/lifecycle.md`, "Silent push"): the newest
/// push is the one the window delivers, the clean exit after `willTerminate` discards the held push, a scene app's
/// switcher close marks it force-quit, and `reset` (a restarted device) clears the mark.
@Suite("held pushes and force-quit apps")
struct HeldPushTests {
    private static func push(_ n: Int) -> Step {
        .fire(.push("A", PushNotification(contentAvailable: true, alert: false, payload: #"{"n":\#(n)}"#)))
    }

    /// The push records from `start` on, as `event payload`.
    private static func pushes(_ harness: Harness, from start: Int) -> [String] {
        harness.journal[start...].compactMap { action -> String? in
            if case .pushRecord(let push) = action { "\(push.event.rawValue) \(push.payload)" } else { nil }
        }
    }

    @Test("over the rate limit only the newest push is held, and it is the one the hour's window delivers")
    func theWindowDeliversTheNewest() {
        var harness = Harness(profile: .ios13)
        harness.run(.connect("A"))
        harness.run(.fire(.home))
        for n in 1...3 { harness.run(Self.push(n)) }
        let start = harness.journal.count
        harness.run(Self.push(4))
        harness.run(Self.push(5))
        #expect(harness.device.deferredPushCount(of: "A") == 1)
        harness.run(.elapse(.seconds(3600)))
        #expect(Self.pushes(harness, from: start) == [
            #"deferred {"n":4}"#, #"discarded {"n":4}"#, #"deferred {"n":5}"#, #"delivered {"n":5}"#,
            #"answered {"n":5}"#,
        ])
        #expect(harness.device.deferredPushCount(of: "A") == 0)
    }

    @Test("the clean exit after willTerminate discards the held push; a later push launches the app")
    func willTerminateDiscardsTheHeldPush() {
        var harness = Harness(profile: .ios13)
        harness.run(.connect("A", AppFlags(backgroundModes: ["audio"])))  // running in the background: willTerminate
        harness.run(.fire(.home))
        for n in 1...4 { harness.run(Self.push(n)) }
        #expect(harness.device.deferredPushCount(of: "A") == 1)
        let start = harness.journal.count
        harness.run(.fire(.terminate("A", byUser: false)))
        #expect(Self.pushes(harness, from: start) == [#"discarded {"n":4}"#])
        #expect(harness.device.deferredPushCount(of: "A") == 0)
        harness.run(.elapse(.seconds(3600)))
        harness.run(Self.push(5))
        #expect(harness.describe(from: start).contains("start A"), "not force-quit: the push launches it")
    }

    @Test("a scene app closed in the switcher is force-quit: a push does not launch it")
    func aSceneAppClosedInTheSwitcherIsForceQuit() {
        var harness = Harness(profile: .ios17)
        harness.run(.connect("A", AppFlags(adoptsScenes: true)))
        harness.run(.fire(.terminate("A", byUser: true)))
        #expect(harness.device.state(of: "A") == .notRunning)
        let start = harness.journal.count
        harness.run(Self.push(1))
        #expect(Self.pushes(harness, from: start) == [#"discarded {"n":1}"#])
        #expect(!harness.describe(from: start).contains("start A"))
    }

    @Test(
        "reset clears the force-quit mark, as a restart does: the next push launches the app", arguments: [false, true])
    func resetClearsTheForceQuitMark(resets: Bool) {
        var harness = Harness(profile: .ios13)
        harness.run(.connect("A"))
        harness.run(.fire(.terminate("A", byUser: true)))
        // Its process comes back on its own, into the background (not a user's launch: the mark stays), so `reset`
        // keeps the app; the system then ends it.
        harness.run(.connect("A", AppFlags(launchInBackground: true)))
        if resets { harness.run(.fire(.reset)) }
        harness.run(.fire(.terminate("A", byUser: false)))
        let start = harness.journal.count
        harness.run(Self.push(1))
        #expect(harness.describe(from: start).contains("start A") == resets)
        #expect(Self.pushes(harness, from: start).first == (resets ? #"delivered {"n":1}"# : #"discarded {"n":1}"#))
    }
}

import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// Step lists the invariant tests found, replayed as plain tests so each stays fixed.
@Suite("regressions found by the invariant tests")
struct RegressionTests {
    @Test("a launch behind the lock follows the flags of the process that connects")
    func launchBehindLockFollowsConnectingFlags() {
        var harness = Harness(profile: .ios7)
        harness.run(.connect("B"))
        harness.run(.fire(.call(.ring)))
        harness.run(.fire(.call(.answer)))
        harness.run(.fire(.memoryWarning(.critical)))  // B, suspended, is killed; the call still returns to it
        harness.run(.fire(.sleep))
        harness.flags["B"] = AppFlags(exitsOnSuspend: true)  // the relaunched process exits on suspend
        let start = harness.journal.count
        harness.run(.fire(.call(.end)))
        #expect(harness.describe(from: start) == ["start B", "B didFinishLaunching notRunning→inactive ok"])
        #expect(harness.situation == "B=inactive front=B locked")
    }

    @Test("an app that crashes while waiting for its turn to come to the front is not relaunched beside another")
    func crashedIncomingAppStaysOutOfTheForeground() {
        var harness = Harness(profile: .ios7)
        let steps: [Step] = [
            .connect("A"), .connect("B", AppFlags(exitsOnSuspend: true)), .hold("B"), .fire(.launch("A")),
            .crash("A"), .elapse(.seconds(24)), .fire(.launch("D")),
        ]
        harness.flags["D"] = AppFlags(launchInBackground: true)
        for step in steps {
            harness.run(step)
            let foreground = harness.device.appSnapshots.filter { $0.state.isForeground }
            #expect(foreground.count <= 1, "after \(step): \(harness.situation)")
        }
        #expect(harness.situation == "A=notRunning B=notRunning D=active front=D")
    }
}

import LifebusCore
import LifecycleContract
import Testing

/// Step lists found by the invariant tests, replayed as plain tests that check the foreground count after
/// every step.
@Suite("foreground regressions found by the invariant tests")
struct RegressionTests {
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

import LifebusCore
import LifebusLifecycle
import Testing

/// A launch whose process the caller could not start fails at once (`launchFailed`), not at the launch budget.
@Suite("launch failure")
struct LaunchFailureTests {
    @Test("a launch whose spawn failed is refused launchFailed at once, its timer cancelled")
    func spawnFailureFailsTheLaunch() {
        var device = Device()
        let launch = device.handle(.fire(EventID(1), .launch("B")), at: .zero)
        #expect(launch.contains(.startProcess("B")))
        #expect(device.timerOwners == ["B"])
        let failed = device.handle(.launchFailed("B"), at: Instant(nanoseconds: 5))
        #expect(failed.contains(.reject(Rejection(event: EventID(1), app: "B", reason: .launchFailed))))
        #expect(device.armedTimerCount == 0 && device.earliestDeadline == nil)
        #expect(device.state(of: "B") == .notRunning)
        // Launching again asks for the process again.
        let again = device.handle(.fire(EventID(2), .launch("B")), at: Instant(nanoseconds: 10))
        #expect(again.contains(.startProcess("B")))
    }

    @Test("a launch failure for an app that is not launching changes nothing")
    func strayFailureIsIgnored() {
        var device = Device()
        #expect(device.handle(.launchFailed("X"), at: .zero).isEmpty)
    }
}

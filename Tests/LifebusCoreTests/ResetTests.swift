import LifebusCore
import Testing

@Suite("reset: a fresh device without a restart")
struct ResetTests {
    @Test("reset unlocks, ends the call and alert, forgets apps without a process, and brings the front app back")
    func resetClearsTheScreenAndForgetsAppsWithoutAProcess() {
        var harness = Harness(profile: .ios7)
        harness.run(.connect("B"))
        harness.run(.crash("B"))
        harness.run(.connect("A"))
        harness.run(.fire(.call(.ring)))
        #expect(harness.device.state(of: "A") == .inactive)
        let start = harness.journal.count
        harness.run(.fire(.reset))
        #expect(harness.describe(from: start) == ["A didBecomeActive inactive→active ok"])
        #expect(harness.device.call == .none)
        #expect(!harness.device.isLocked)
        #expect(harness.device.appSnapshots.map(\.id) == ["A"], "B had no process: forgotten")
        #expect(harness.device.foregroundApp == "A")
        harness.run(.fire(.activate("B")))
        #expect(harness.journal.last == .reject(Rejection(event: EventID(UInt64(harness.lastEvent)), app: "B",
                                                          reason: .unknownApp)))
        harness.run(.connect("B"))
        #expect(harness.device.appSnapshots.map(\.id) == ["A", "B"], "a forgotten app that connects is new")
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("reset while locked unlocks and the front app becomes active again")
    func resetWhileLocked() {
        var harness = Harness(profile: .ios7)
        harness.run(.connect("A"))
        harness.run(.fire(.sleep))
        #expect(harness.device.state(of: "A") == .suspended)
        harness.run(.fire(.reset))
        #expect(harness.device.state(of: "A") == .active)
        #expect(!harness.device.isLocked)
    }
}

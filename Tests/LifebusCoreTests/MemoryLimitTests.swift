import LifebusCore
import LifebusLifecycle
import Testing

/// An app over its own memory limit is killed without notice (`jetsam`), even in front.
@Suite("memory limit")
struct MemoryLimitTests {
    @Test("the app in front over its limit is killed silently and leaves the front")
    func frontAppOverItsLimitIsKilled() {
        var harness = Harness(profile: .ios7)
        harness.run(.connect("A"))
        var device = harness.device
        let actions = device.handle(.memoryLimitExceeded("A"), at: Instant(nanoseconds: 1_000_000_000))
        #expect(actions.contains(.kill("A", reason: .jetsam)))
        #expect(!actions.contains { if case .sendCallback = $0 { true } else { false } }, "no notice")
        #expect(device.state(of: "A") == .notRunning)
        #expect(device.foregroundApp == nil)
    }

    @Test("an app without a process is refused appNotRunning")
    func appWithoutProcessIsRefused() {
        var device = Device()
        let actions = device.handle(.memoryLimitExceeded("X"), at: .zero)
        #expect(actions == [.reject(Rejection(app: "X", reason: .appNotRunning))])
    }
}

import LifebusTesting
import Testing

/// The kit's tapped notification (`push(_:payload:alert:tap:)`, `Protocol/lifecycle.md` B36): a suspended app comes
/// back to the front (`willEnterForeground`, `didBecomeActive`), and a locked device refuses the tap.
@Suite(.hangGuard)
@MainActor
struct TappedNotificationKitTests {
    /// An app that does nothing of its own.
    final class Idle: ApplicationDelegate {}

    @Test func aTapBringsASuspendedAppBackAndALockedDeviceRefusesIt() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios13)
        let app = try await bus.launch("com.example.Idle", delegate: Idle())
        try await bus.fire(.home)
        #expect(try await bus.state(of: app) == .suspended)
        try await bus.push(app, payload: #"{"post":3}"#, tap: true)
        #expect(try await bus.state(of: app) == .active)
        try await bus.expect(app, callback: .didBecomeActive, outcome: .ok)
        try await bus.lock()
        await #expect(throws: EventRejected.self) { try await bus.push(app, tap: true) }
    }
}

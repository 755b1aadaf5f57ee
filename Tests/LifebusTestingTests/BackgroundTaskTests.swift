import LifebusLifecycle
import LifebusTesting
import Testing

/// Background time asked for by the test for an in-process app: a task keeps the app in the background until it
/// ends, a suspended app is refused one — the same on both transports.
@Suite(.hangGuard)
@MainActor
struct BackgroundTaskTests {
    /// Notes begins a task, goes home, ends it, is refused one once suspended; returns what the bus recorded.
    private func taskAcrossHome(on transport: LifebusTestBus.Transport) async throws -> BusTimeline {
        let bus = try await LifebusTestBus(transport, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        let task = try await bus.beginBackgroundTask(in: app, name: "save")
        try await bus.fire(.home)
        try await bus.expect(app, state: .background)
        try await bus.endBackgroundTask(task, in: app)
        try await bus.expect(app, state: .suspended)
        await #expect(throws: BackgroundTaskRefused(app: app.id, reason: .appSuspended)) {
            _ = try await bus.beginBackgroundTask(in: app)
        }
        let timeline = bus.timeline
        await bus.shutdown()
        return timeline
    }

    @Test func aTaskKeepsTheAppInTheBackgroundUntilItEndsOnEitherTransport() async throws {
        let inMemory = try await taskAcrossHome(on: .inMemory)
        #expect(inMemory.entries(of: "com.example.Notes").last
            == .transition(app: "com.example.Notes", callback: nil, from: .background, to: .suspended, outcome: .ok))
        #expect(try await taskAcrossHome(on: .live) == inMemory)
    }

    @Test func underIOS3TheDeviceRefusesBackgroundTime() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios3)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        await #expect(throws: BackgroundTaskRefused(app: app.id, reason: .backgroundTasksUnavailable)) {
            _ = try await bus.beginBackgroundTask(in: app)
        }
        await bus.shutdown()
    }
}

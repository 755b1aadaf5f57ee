import LifebusTesting
import Testing

/// An app the device kills is started again by a fired launch: in memory the in-process app, with the same delegate
/// (its death and relaunch simulated as the supervisor's), live the installed `lifebus subscribe` app — the same
/// timeline either way, its start and kill in it.
@Suite(.hangGuard)
@MainActor
struct KilledAppRelaunchTests {
    /// Counts its launches.
    final class Counting: ApplicationDelegate {
        var launches = 0

        func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
            launches += 1
        }
    }

    /// The app goes home, the system terminates it while suspended, and a launch starts it again; returns the
    /// timeline of the app from its kill on.
    private func killedAndRelaunched(
        _ bus: LifebusTestBus, _ app: LifebusTestApp
    ) async throws -> [BusTimeline.Entry] {
        try await bus.fire(.home)
        try await bus.fire(.terminate(app.id, byUser: false))
        try await bus.expect(app, outcome: .killed(.system))
        let start = bus.timeline.entries(of: app.id).count
        try await bus.fire(.launch(app.id))
        try await bus.expect(app, state: .active)
        try await bus.expect(app, outcome: .ok)
        let entries = Array(bus.timeline.entries(of: app.id).dropFirst(start - 2))
        await bus.shutdown()
        return entries
    }

    @Test func aKilledAppIsStartedAgainInMemoryWithItsDelegateAndLiveAsAnInstalledApp() async throws {
        let delegate = Counting()
        let memory = try await LifebusTestBus(.inMemory, profile: .ios7)
        let inMemory = try await killedAndRelaunched(
            memory, try await memory.launch(OutcomeTests.id, delegate: delegate))
        #expect(delegate.launches == 2)
        #expect(inMemory == [
            .killed(app: OutcomeTests.id, reason: .system),
            .transition(app: OutcomeTests.id, callback: nil, from: .suspended, to: .notRunning, outcome: .killed),
            .started(app: OutcomeTests.id),
            .transition(
                app: OutcomeTests.id, callback: .didFinishLaunching, from: .notRunning, to: .inactive, outcome: .ok),
            .transition(app: OutcomeTests.id, callback: .didBecomeActive, from: .inactive, to: .active, outcome: .ok),
        ])

        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        let live = try await LifebusTestBus(.live, profile: .ios7)
        TestMachine.write(
            """
            {"id": "\(OutcomeTests.id)", "executable": "\(TestMachine.productsFolder)/lifebus",
             "arguments": ["subscribe", "--id", "\(OutcomeTests.id)"]}
            """, to: folder + "/app.json")
        let installed = try await live.launch(try await live.install(manifest: folder + "/app.json"))
        #expect(try await killedAndRelaunched(live, installed) == inMemory)
    }
}

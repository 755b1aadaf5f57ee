import LifebusLifecycle
import LifebusTesting
import Testing

/// A launch whose app never connects runs out its launch budget: the kit throws `LaunchTimedOut` (app and budget),
/// not `EventRejected` nor the raw wire error, and the same value on the in-memory and the live transport.
@Suite(.hangGuard)
@MainActor
struct LaunchTimeoutTests {
    static let absent: AppID = "com.example.Absent"

    /// Fires a launch of an app that never connects, moves the clock past its launch budget; returns what the
    /// event's completion threw.
    private func launchOfAnAppThatNeverConnects(on transport: LifebusTestBus.Transport) async throws -> (any Error)? {
        let bus = try await LifebusTestBus(transport, profile: .ios7)
        let fired = try await bus.fire(.launch(Self.absent), waiting: false)
        try await bus.advance(by: .seconds(21))
        var thrown: (any Error)?
        do { try await fired.completion() } catch { thrown = error }
        await bus.shutdown()
        return thrown
    }

    static let expected = LaunchTimedOut(event: .launch(absent), app: absent, budget: .seconds(20))

    @Test func inMemoryALaunchPastItsBudgetThrowsLaunchTimedOut() async throws {
        let thrown = try await launchOfAnAppThatNeverConnects(on: .inMemory)
        #expect(thrown as? LaunchTimedOut == Self.expected, "\(String(describing: thrown))")
        #expect("\(Self.expected)".contains("did not connect within its launch budget (20s)"))
    }

    @Test func liveALaunchPastItsBudgetThrowsTheSameLaunchTimedOut() async throws {
        let thrown = try await launchOfAnAppThatNeverConnects(on: .live)
        #expect(thrown as? LaunchTimedOut == Self.expected, "\(String(describing: thrown))")
    }

    @Test func anInstalledProgramThatNeverSaysHelloTimesOutItsLaunch() async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        TestMachine.write(
            #"{"id": "com.example.Mute", "executable": "/bin/sleep", "arguments": ["1000"]}"#, to: folder + "/app.json")
        let bus = try await LifebusTestBus(.live, profile: .ios7)
        let id = try await bus.install(manifest: folder + "/app.json")
        let fired = try await bus.fire(.launch(id), waiting: false)
        try await bus.advance(by: .seconds(21))
        await #expect(throws: LaunchTimedOut(event: .launch(id), app: id, budget: .seconds(20))) {
            try await fired.completion()
        }
        await bus.shutdown()
    }
}

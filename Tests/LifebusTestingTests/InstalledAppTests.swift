import LifebusLifecycle
import LifebusTesting
import Testing

/// Installed apps through the kit: a real executable (the ReturnMeTo example, built beside the test bundle)
/// installed from a manifest and started by the live broker's supervisor, asserted with the same `expect`s as an
/// in-process app; the in-memory bus refusing what it cannot run.
@Suite(.hangGuard)
@MainActor
struct InstalledAppTests {
    @Test func anInstalledAppIsStartedByTheBrokerAndAssertedLikeAnyOther() async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        TestMachine.write(
            """
            {"id": "com.example.ReturnMeTo", "executable": "\(TestMachine.productsFolder)/ReturnMeTo",
             "arguments": ["--state-file", "\(folder)/state"]}
            """, to: folder + "/app.json")
        let bus = try await LifebusTestBus(.live, profile: .ios7)
        let id = try await bus.install(manifest: folder + "/app.json")
        #expect(id == "com.example.ReturnMeTo")
        let app = try await bus.launch(id)
        #expect(app.application == nil, "its own process serves it, not the test's")
        try await bus.expect(app, state: .active)
        // Launch options come only to an app the broker installed and started.
        #expect(bus.timeline.marks(of: id).starts(with: ["launch-options", "state-restored"]))

        try await bus.fire(.home)
        try await bus.expect(app, callbacks: [.willResignActive, .didEnterBackground])
        try await bus.expect(app, mark: "state-saved")
        try await bus.expect(app, state: .suspended)
        try await bus.fire(.terminate(id, byUser: true))
        try await bus.expect(app, state: .notRunning)
        #expect(bus.timeline.entries(of: id).last
            == .transition(app: id, callback: nil, from: .suspended, to: .notRunning, outcome: .killed))
        await bus.shutdown()
    }

    @Test func aLaunchThatNeverComesUpFailsAtTheAnswerLimitInsteadOfHanging() async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        // ReturnMeTo says hello as com.example.ReturnMeTo: the broker waits for com.example.Elsewhere in vain (on the
        // manual clock its launch budget never passes).
        TestMachine.write(
            """
            {"id": "com.example.Elsewhere", "executable": "\(TestMachine.productsFolder)/ReturnMeTo",
             "arguments": ["--state-file", "\(folder)/state"]}
            """, to: folder + "/app.json")
        let bus = try await LifebusTestBus(.live(answerLimit: .seconds(1)), profile: .ios7)
        try await bus.install(manifest: folder + "/app.json")
        await #expect {
            _ = try await bus.launch("com.example.Elsewhere")
        } throws: { error in
            "\(error)".contains("the broker did not answer fire within 1.0 seconds")
        }
        await bus.shutdown()
    }

    @Test func anInMemoryBusRefusesAnExecutableAppSayingWhatToDoInstead() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        await #expect {
            try await bus.install(manifest: "Examples/manifests/memory-hog.json")
        } throws: { error in
            "\(error)".contains("an in-memory bus starts no processes") && "\(error)".contains("launch(_:delegate:)")
        }
        await #expect {
            _ = try await bus.launch("com.example.ReturnMeTo")
        } throws: { error in
            "\(error)".contains("com.example.ReturnMeTo is not installed on this bus")
        }
        await #expect {
            try await bus.fire(.launch("com.example.ReturnMeTo"))
        } throws: { error in
            "\(error)".contains("an app that is not connected: in memory, launch(_:delegate:) brings it")
        }
    }
}

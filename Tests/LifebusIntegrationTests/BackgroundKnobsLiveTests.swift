import Glibc
import LifebusJSON
import Testing

/// `lifebusd --protected-data-notifications`, `--tasks-after-force-quit` and `--background-launch-scene` (named by
/// the run record only: `BackgroundLaunchSceneKitTests` runs a scene app under it) through a real broker and a `lifebus
/// subscribe` app (`Protocol/lifecycle.md`'s knob table): the run record's `background` names what the broker ran
/// with, and a suspended app resumed by a silent push while locked hears the lock it missed only when notifications
/// are queued (B48).
@Suite struct BackgroundKnobsLiveTests {
    static let id = "com.example.Knobs"

    struct Case: Sendable, CustomTestStringConvertible {
        var flags: [String]
        var queues: Bool
        var kinds: [String]
        var connects = false
        var testDescription: String { flags.isEmpty ? "the profile's knobs" : flags.joined(separator: " ") }
    }

    @Test(arguments: [
        Case(flags: [], queues: true, kinds: ["processing"]),
        Case(flags: ["--protected-data-notifications", "missed", "--tasks-after-force-quit", "processing,appRefresh"],
             queues: false, kinds: ["appRefresh", "processing"]),
        Case(flags: ["--protected-data-notifications", "queued", "--tasks-after-force-quit", "none",
                     "--background-launch-scene", "connects"],
             queues: true, kinds: [], connects: true),
    ])
    func theRunRecordNamesTheKnobsAndAResumedAppHearsTheLockOnlyWhenQueued(_ knobs: Case) throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17", "--clock", "manual"] + knobs.flags)
        let run = try #require(try broker.history().first { $0["type"] == "run" })
        #expect(run["background"]?["queuesProtectedDataNotifications"]?.boolValue == knobs.queues)
        #expect(run["background"]?["taskKindsAfterForceQuit"] == .array(knobs.kinds.map(JSONValue.string)))
        #expect(run["background"]?["connectsSceneAtBackgroundLaunch"]?.boolValue == knobs.connects)

        let app = try broker.subscribe(Self.id)
        defer { _ = app.waitForExit() }
        #expect(try broker.reached(Self.id, "active"))
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(Self.id, "suspended"))
        #expect(try broker.cli(["fire", "sleep"]).status == 0)
        #expect(try broker.cli(["clock", "advance", "15s"]).status == 0)
        #expect(try broker.cli(["fire", "push", Self.id]).status == 0)
        #expect(try AppsSupervisedTests.eventually {
            try broker.history().contains { $0["type"] == "push" && $0["event"] == "answered" }
        })
        let callbacks = try broker.transitions(of: Self.id).compactMap { $0["callback"]?.stringValue }
        #expect(callbacks.contains("protectedDataWillBecomeUnavailable") == knobs.queues, "\(callbacks)")
        _ = try broker.cli(["fire", "wake"])
        _ = try broker.cli(["fire", "terminate", Self.id])
    }
}

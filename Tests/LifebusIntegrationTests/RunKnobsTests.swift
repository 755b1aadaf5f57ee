import Glibc
import Testing

/// `lifebus run --protected-data-notifications …` (and the other device knobs, `BrokerKnobOptions`): the knob reaches
/// every private broker a run starts — the real DeepThoughts, suspended before the lock and resumed by a silent push
/// behind it, hears the lock it missed only when notifications are queued (B48) — and is refused with `--socket`; a
/// file's `knobs` replace the command line's, and fail its run on a running broker.
@Suite struct RunKnobsTests {
    static func scenario(expecting callbacks: String, knobs: String = "") throws -> String {
        let path = makeTemporaryFolder("lifebus-run-knobs") + "/locked-push.yaml"
        let text = """
            name: a push behind the lock
            profiles: [ios17]
            \(knobs)
            apps:
              - manifest: \(ScenarioRunTests.root)/Examples/manifests/deepthoughts.json
            steps:
              - launch: com.example.DeepThoughts
              - fire: home
              - wait: {app: com.example.DeepThoughts, state: suspended}
              - fire: sleep
              - advance: 15s
              - fire: push com.example.DeepThoughts
              - expect: {callbacks: \(callbacks)}

            """
        guard let file = fopen(path, "w") else { throw FixtureError("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
        return path
    }

    /// The launch and `home`, then the push's resume: `didEnterBackground`, the lock when queued, the push.
    static let before = "didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground, didEnterBackground"
    static let queued = "[\(before), protectedDataWillBecomeUnavailable, didReceiveRemoteNotification]"

    @Test(arguments: [
        ([String](), queued),
        (["--protected-data-notifications", "queued"], queued),
        (["--protected-data-notifications", "missed", "--tasks-after-force-quit", "appRefresh,processing",
          "--background-launch-scene", "none"], "[\(before), didReceiveRemoteNotification]"),
    ])
    func theKnobReachesTheBrokersTheRunStarts(knobs: [String], callbacks: String) throws {
        let run = try ScenarioRunTests.lifebus(["run", try Self.scenario(expecting: callbacks)] + knobs)
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
    }

    @Test(arguments: [
        ["--protected-data-notifications", "sometimes"], ["--tasks-after-force-quit", "refresh"],
        ["--tasks-after-force-quit", "processing,"], ["--background-launch-scene", "always"],
        ["--socket", "/tmp/nowhere.sock", "--protected-data-notifications", "missed"],
    ])
    func aBadKnobOrAKnobWithSocketIsAUsageError(arguments: [String]) throws {
        let run = try ScenarioRunTests.lifebus(["run", try Self.scenario(expecting: "[]")] + arguments)
        #expect(run.status == 2, "\(run.out)\n\(run.err)")
        #expect(run.err.contains("Error"), "\(run.err)")
    }

    @Test func aFilesKnobsReplaceTheCommandLinesAndAreRefusedOnARunningBroker() throws {
        let missed = try Self.scenario(
            expecting: "[\(Self.before), didReceiveRemoteNotification]",
            knobs: "knobs: {protected-data-notifications: missed}")
        let run = try ScenarioRunTests.lifebus(["run", missed, "--protected-data-notifications", "queued"])
        #expect(run.status == 0, "the file's missed replaces the command line's queued: \(run.out)\n\(run.err)")
        let broker = try BrokerFixture(arguments: ["--profile", "ios17", "--clock", "manual"])
        let refused = try ScenarioRunTests.lifebus(["run", missed, "--socket", broker.socketPath])
        #expect(refused.status == 1, "\(refused.out)\n\(refused.err)")
        #expect(refused.out.contains("the scenario sets device knobs (protected-data-notifications: missed)"),
                "\(refused.out)")
    }
}

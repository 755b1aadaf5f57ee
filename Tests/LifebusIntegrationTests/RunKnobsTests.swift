import Glibc
import Testing

/// `lifebus run --protected-data-notifications …` (and the other device knobs, `BrokerKnobOptions`): the knob reaches
/// every private broker a run starts — the real DeepThoughts, suspended before the lock and resumed by a silent push
/// behind it, hears the lock it missed only when notifications are queued (B48); FeedReader, force-quit, is launched
/// for its due app refresh task only when `appRefresh` is among `--tasks-after-force-quit`'s kinds (B64–B66); the
/// scene app MigratedPush, launched into the background by a silent push, connects a scene there only with
/// `--background-launch-scene connects` (S47–S51) — and is refused with `--socket`; a file's `knobs` replace the
/// command line's, and fail its run on a running broker.
@Suite struct RunKnobsTests {
    static let manifests = "\(ScenarioRunTests.root)/Examples/manifests"

    /// A scenario file in `folder`: DeepThoughts suspended, the lock, a push behind it, and the callbacks that brings;
    /// with `everyKnob`, then the wake (a launch is refused while locked), FeedReader force-quit and its refresh task
    /// due (`forceQuitLaunch`: the callbacks that brings), and a silent push to MigratedPush, not running
    /// (`backgroundLaunch`: the callbacks that brings).
    static func scenario(
        in folder: String, expecting callbacks: String, knobs: String = "",
        everyKnob: (forceQuitLaunch: String, backgroundLaunch: String)? = nil
    ) throws -> String {
        let path = folder + "/locked-push.yaml"
        let apps = everyKnob == nil ? "" : """

              - manifest: \(manifests)/feedreader.json
              - manifest: \(manifests)/migrated-push.json
            """
        let steps = everyKnob.map { every in
            """
              - fire: wake
              - launch: com.example.FeedReader
              - fire: terminate com.example.FeedReader --by-user
              - expect: {app: com.example.FeedReader, state: notRunning}
              - fire: bgtask com.example.FeedReader com.example.FeedReader.refresh
              - expect: {app: com.example.FeedReader, callbacks: \(every.forceQuitLaunch)}
              - fire: push com.example.MigratedPush
              - expect: {app: com.example.MigratedPush, callbacks: \(every.backgroundLaunch)}

            """
        } ?? ""
        let text = """
            name: a push behind the lock
            profiles: [ios17]
            \(knobs)
            apps:
              - manifest: \(manifests)/deepthoughts.json\(apps)
            steps:
              - launch: com.example.DeepThoughts
              - fire: home
              - wait: {app: com.example.DeepThoughts, state: suspended}
              - fire: sleep
              - advance: 15s
              - fire: push com.example.DeepThoughts
              - expect: {app: com.example.DeepThoughts, callbacks: \(callbacks)}

            """ + steps
        guard let file = fopen(path, "w") else { throw FixtureError("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
        return path
    }

    /// The launch and `home`, then the push's resume: `didEnterBackground`, the lock when queued, the push.
    static let before = "didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground, didEnterBackground"
    static let queued = "[\(before), protectedDataWillBecomeUnavailable, didReceiveRemoteNotification]"

    @Test(arguments: [([String](), queued), (["--protected-data-notifications", "queued"], queued)])
    func theKnobReachesTheBrokersTheRunStarts(knobs: [String], callbacks: String) throws {
        try withTemporaryFolder("lifebus-run-knobs") { folder in
            let run = try ScenarioRunTests.lifebus(["run", try Self.scenario(in: folder, expecting: callbacks)] + knobs)
            #expect(run.status == 0, "\(run.out)\n\(run.err)")
        }
    }

    /// Each of the three knobs set away from ios17's default, each observed: the run fails if any one of them does
    /// not reach the broker. With the defaults instead: `queued` adds protectedDataWillBecomeUnavailable, under
    /// `processing` FeedReader stays not running, and `none` launches MigratedPush without a scene callback.
    @Test func everyKnobReachesTheBrokersTheRunStarts() throws {
        try withTemporaryFolder("lifebus-run-knobs") { folder in
            let scenario = try Self.scenario(
                in: folder, expecting: "[\(Self.before), didReceiveRemoteNotification]",
                everyKnob: (
                    forceQuitLaunch: "[didFinishLaunching]",
                    backgroundLaunch: "[didFinishLaunching, configurationForConnecting, willConnectTo, "
                        + "sceneDidEnterBackground, didReceiveRemoteNotification]"))
            let run = try ScenarioRunTests.lifebus([
                "run", scenario, "--protected-data-notifications", "missed",
                "--tasks-after-force-quit", "appRefresh,processing", "--background-launch-scene", "connects",
            ])
            #expect(run.status == 0, "\(run.out)\n\(run.err)")
        }
    }

    @Test(arguments: [
        ["--protected-data-notifications", "sometimes"], ["--tasks-after-force-quit", "refresh"],
        ["--tasks-after-force-quit", "processing,"], ["--background-launch-scene", "always"],
        ["--socket", "/tmp/nowhere.sock", "--protected-data-notifications", "missed"],
    ])
    func aBadKnobOrAKnobWithSocketIsAUsageError(arguments: [String]) throws {
        try withTemporaryFolder("lifebus-run-knobs") { folder in
            let run = try ScenarioRunTests.lifebus(["run", try Self.scenario(in: folder, expecting: "[]")] + arguments)
            #expect(run.status == 2, "\(run.out)\n\(run.err)")
            #expect(run.err.contains("Error"), "\(run.err)")
        }
    }

    @Test func aFilesKnobsReplaceTheCommandLinesAndAreRefusedOnARunningBroker() throws {
        try withTemporaryFolder("lifebus-run-knobs") { folder in
            let missed = try Self.scenario(
                in: folder, expecting: "[\(Self.before), didReceiveRemoteNotification]",
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
}

import Testing

/// Issue 28's two stories found by the real fuzzer (`lifebus run --random`, a fresh manual-clock `lifebusd` per run)
/// against the real `Examples/FeedReader` processes, with the seeds `Protocol/scenarios.md` prints: a refresh task
/// that forgets `setTaskCompleted` (`--forgets-completion`, seed 2) and a draft lost to the lock (without
/// `--saves-on-lock`, seed 6), each found, shrunk to its three steps and written as a reproducer that `lifebus run`
/// fails the same way; the fixed FeedReader keeps every invariant over the same seed and steps. Every run is a
/// script in a folder of its own, so no broker or app it started may outlive it.
@Suite struct BackgroundFuzzLiveTests {
    private static let manifests = "\(TranscriptReplayTests.repositoryRoot)/Examples/manifests"
    private static let refresh = "com.example.FeedReader.refresh"
    private static let taskFacts = "--fact task=\(refresh):15m"
    private static let draftFacts = "--fact pushes --fact protected=draft-lost"

    /// `lifebus run --random SEED` of one FeedReader manifest under ios13, then its reproducer (when one was written)
    /// printed and replayed; `out` has the fuzzer's output, `exit F`, the reproducer, and the replay's `exit R`.
    private func fuzz(_ manifest: String, seed: Int, steps: Int, facts: String) throws
        -> (status: Int32, out: String, err: String, leftOver: [String])
    {
        let script = """
            lifebus run --random \(seed) --steps \(steps) --profile ios13 \
              --app \(Self.manifests)/\(manifest) \(facts) -o fuzz.yaml
            echo "exit $?"
            if [ -f fuzz.yaml ]; then
              cat fuzz.yaml
              lifebus run fuzz.yaml
              echo "replay exit $?"
            fi
            exit 0
            """
        // A task never completed costs each step that launched it the runner's 1 s wait for its end: the shrinker's
        // runs of the forgetful seed take about 15 s of those.
        return try CopiedScript(named: "fuzz.sh", contents: script).run(timeout: .seconds(120))
    }

    /// `launch; fire bgtask; advance 30s` against the correct FeedReader, as a reproducer the fuzzer writes runs
    /// them: back to back on one connection. Its handler answers `performBackgroundTask`, then marks and calls
    /// `setTaskCompleted`; the advance waits at the launch's instant for that, so the task is completed — without
    /// the wait the app was killed `backgroundTaskExpired` on every run (a false failure of a correct app).
    @Test func anAdvanceRightAfterATaskLaunchLetsTheAppCompleteItFirst() throws {
        let scenario = """
            name: advance right after a task launch
            profiles: [ios13, ios17]
            apps:
              - manifest: \(Self.manifests)/feedreader.json
            steps:
              - launch: com.example.FeedReader
              - fire: bgtask com.example.FeedReader \(Self.refresh)
              - advance: 30s
              - expect: {task: {identifier: \(Self.refresh), outcome: completed}}
            """
        let script = """
            cat >advance.yaml <<'YAML'
            \(scenario)
            YAML
            for run in 1 2 3; do lifebus run advance.yaml; echo "exit $?"; done
            exit 0
            """
        let run = try CopiedScript(named: "advance.sh", contents: script).run(timeout: .seconds(60))
        expectNoCrash(run)
        let exits = run.out.split(separator: "\n").filter { $0.hasPrefix("exit ") }
        #expect(exits == ["exit 0", "exit 0", "exit 0"], "\(run.out)\n\(run.err)")
    }

    /// The steps of a reproducer, without its `expect`s and `note`s.
    private func actions(_ out: String) -> [Substring] {
        out.split(separator: "\n").drop { $0 != "steps:" }.prefix { !$0.hasPrefix("exit") && !$0.hasPrefix("FAIL") }
            .filter { $0.hasPrefix("  - ") && !$0.hasPrefix("  - expect:") && !$0.hasPrefix("  - note:") }
    }

    /// What no run may print: a broker that broke its own invariants or crashed.
    private func expectNoCrash(_ run: (status: Int32, out: String, err: String, leftOver: [String])) {
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(!run.err.contains("Assertion failed") && !run.err.contains("crashed"), "\(run.err)")
        #expect(run.leftOver.isEmpty, "processes left running: \(run.leftOver)")
    }

    @Test func aRefreshTaskThatForgetsSetTaskCompletedIsFoundShrunkAndReproduced() throws {
        let run = try fuzz("feedreader-forgets-completion.json", seed: 2, steps: 30, facts: Self.taskFacts)
        expectNoCrash(run)
        #expect(run.out.contains("exit 1\n"), "\(run.out)")
        #expect(run.out.contains("broke an invariant: com.example.FeedReader: the appRefresh task \(Self.refresh) "
            + "was neither completed nor expired in time"), "\(run.out)")
        #expect(run.out.contains("shrunk to 3 steps"), "\(run.out)")
        let steps = actions(run.out)
        #expect(steps.count == 3, "\(run.out)")
        #expect(steps.dropFirst().map(String.init) == [
            "  - fire: \"bgtask com.example.FeedReader \(Self.refresh)\"", "  - advance: \"30s\""], "\(run.out)")
        #expect(run.out.contains("replay exit 1"), "\(run.out)")
    }

    @Test func aDraftLostToTheLockIsFoundShrunkAndReproduced() throws {
        let run = try fuzz("feedreader.json", seed: 6, steps: 60, facts: Self.draftFacts)
        expectNoCrash(run)
        #expect(run.out.contains("exit 1\n"), "\(run.out)")
        #expect(run.out.contains("broke an invariant: com.example.FeedReader:"), "\(run.out)")
        #expect(run.out.contains("draft-lost"), "\(run.out)")
        #expect(run.out.contains("shrunk to 3 steps"), "\(run.out)")
        let steps = actions(run.out)
        #expect(steps.count == 3, "\(run.out)")
        #expect(steps.first == "  - fire: \"sleep\"" && steps.last?.hasPrefix("  - fire: \"push ") == true,
                "\(run.out)")
        #expect(run.out.contains("replay exit 1"), "\(run.out)")
    }

    /// FeedReader `--cleans` submits a processing task requiring external power and the network; the fuzzer draws the
    /// device's conditions for it (`ProcessingStoryTests` shows these seeds take the device off its cable and offline)
    /// and the real broker keeps every invariant, "a processing task never runs while a requirement is unmet" among
    /// them.
    @Test func theDeviceConditionsAreFuzzedAndAProcessingTaskKeepsEveryInvariant() throws {
        let script = """
            lifebus run --seeds 1..4 --steps 60 --profile ios13 --app \(Self.manifests)/feedreader-cleans.json \
              --fact processing=com.example.FeedReader.clean:1m:power:network -o fuzz.yaml
            echo "exit $?"
            """
        let run = try CopiedScript(named: "fuzz.sh", contents: script).run(timeout: .seconds(120))
        expectNoCrash(run)
        #expect(run.out.contains("exit 0\n"), "\(run.out)")
        for seed in 1...4 {
            #expect(run.out.contains("  \(seed) ios13  held over 60 steps"), "\(run.out)")
        }
    }

    /// The check a processing task's reproducer ends with (`noTask`), replayed against the real broker and FeedReader
    /// `--cleans`: the launch sends the app two callbacks and submits the task, and `noTask` holds; the event that
    /// runs the task also sends it `performBackgroundTask`, and the replay fails naming the launch alone.
    @Test func aNoTaskCheckFailsForTheTasksLaunchAloneAgainstTheRealBroker() throws {
        let clean = "com.example.FeedReader.clean"
        let scenario = """
            name: the processing task's launch alone fails noTask
            profiles: [ios13]
            apps:
              - manifest: \(Self.manifests)/feedreader-cleans.json
            steps:
              - fire: power battery
              - fire: network offline
              - launch: com.example.FeedReader
              - expect: {callbacks: [didFinishLaunching, didBecomeActive], noTask: \(clean)}
              - fire: home
              - wait: {app: com.example.FeedReader, state: suspended}
              - fire: sleep
              - advance: 90s
              - fire: power external
              - expect: {app: com.example.FeedReader}
              - fire: network online
              - wait: {app: com.example.FeedReader, state: suspended}
              - expect: {app: com.example.FeedReader, noTask: \(clean)}
            """
        let script = """
            cat >notask.yaml <<'YAML'
            \(scenario)
            YAML
            lifebus run notask.yaml
            echo "exit $?"
            exit 0
            """
        let run = try CopiedScript(named: "notask.sh", contents: script).run(timeout: .seconds(60))
        expectNoCrash(run)
        #expect(run.out.contains("exit 1\n"), "\(run.out)\n\(run.err)")
        #expect(run.out.contains("noTask \(clean): expected not launched, recorded launched 1×"), "\(run.out)")
        #expect(!run.out.contains("callbacks: expected"), "only the launch fails: \(run.out)")
    }

    @Test func theFixedFeedReaderKeepsEveryInvariantOverTheSameSeeds() throws {
        let completes = try fuzz("feedreader.json", seed: 2, steps: 30, facts: Self.taskFacts)
        expectNoCrash(completes)
        #expect(completes.out.contains("every invariant held over 30 steps (seed 2)"), "\(completes.out)")
        #expect(!completes.out.contains("replay exit"), "nothing to reproduce: \(completes.out)")
        let saves = try fuzz("feedreader-saves-on-lock.json", seed: 6, steps: 60, facts: Self.draftFacts)
        expectNoCrash(saves)
        // A push tells the app `didEnterBackground` first (Apple's background execution sequence), where
        // `--saves-on-lock` begins its sync task, ended by its expiration handler from work it starts: the manual
        // clock waits at the warning for that end, so no step kills the app `backgroundTaskExpired`.
        #expect(saves.out.contains("every invariant held over 60 steps (seed 6)"), "\(saves.out)")
        #expect(!saves.out.contains("replay exit"), "nothing to reproduce: \(saves.out)")
    }
}

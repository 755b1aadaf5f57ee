import LifebusIO
import LifebusProtocol
import Testing

/// `lifebus run --random` against real brokers and real example apps: it finds the app that forgets to save on
/// `sms --reply` (Forgetful), shrinks the run to a handful of steps, and writes a scenario that `lifebus run` fails
/// the same way, under each profile with `--profile all`; it finds the app that saves only after its budget
/// (ForgetfulLate) by the watchdog; the correct app (ReturnMeTo) keeps every invariant over as many steps.
@Suite struct FuzzerCLITests {
    private static let manifests = "\(TranscriptReplayTests.repositoryRoot)/Examples/manifests"
    private static let facts = ["--fact", "saves=state-saved", "--fact", "restores=state-restored:shown,draft"]

    /// `lifebus run --random SEED` of one app under `profile`, its reproducer in `folder`.
    private func fuzz(
        _ manifest: String, in folder: String, seed: Int, steps: Int, profile: String = "ios7", facts: [String] = []
    ) throws -> (status: Int32, out: String, err: String, folder: String) {
        let result = try runCLI(
            ["run", "--random", "\(seed)", "--steps", "\(steps)", "--app", "\(Self.manifests)/\(manifest)",
             "--profile", profile, "-o", folder + "/fuzz.yaml"] + Self.facts + facts,
            timeout: .seconds(120))
        return (result.status, result.out, result.err, folder)
    }

    @Test func theForgetfulAppIsFoundAndItsReproducerFailsTheSameWay() throws {
        // Seed 34 replies to an SMS at step 6, after a crash and a relaunch: shrinking keeps only what it needs.
        let folder = makeTemporaryFolder("lifebus-fuzz")
        defer { FolderEntries.removeTree(folder) }
        let found = try fuzz("forgetful.json", in: folder, seed: 34, steps: 15)
        #expect(found.status == 1, "\(found.out)\(found.err)")
        #expect(found.out.contains("fuzzing with seed 34"), "\(found.out)")
        #expect(found.out.contains("step 6 (fire sms --reply) broke an invariant: com.example.Forgetful: "
            + "didEnterBackground answered without a state-saved mark before it"), "\(found.out)")
        let scenario = try #require(readFile(found.folder + "/fuzz.yaml"))
        #expect(actions(scenario) == ["  - launch: \"com.example.Forgetful\"", "  - fire: \"sms\"",
                                      "  - fire: \"sms --reply\""],
                "\(scenario)")

        let replay = try runCLI(["run", found.folder + "/fuzz.yaml"])
        #expect(replay.status == 1, "\(replay.out)\(replay.err)")
        #expect(replay.out.contains("FAIL mark state-saved  expected: present"), "\(replay.out)")
    }

    /// The steps of a reproducer, without its `expect`s and `note`s.
    private func actions(_ scenario: String) -> [Substring] {
        scenario.split(separator: "\n").drop { $0 != "steps:" }.filter {
            $0.hasPrefix("  - ") && !$0.hasPrefix("  - expect:") && !$0.hasPrefix("  - note:")
        }
    }

    @Test func aSceneThatDoesNotRestoreItsPayloadIsFoundAmongTheSceneEvents() throws {
        // ForgetfulScenes (lifebus subscribe --scenes) answers stateRestorationActivity with a payload and never
        // restores it: seed 4 reclaims its background scene and reconnects the session at step 15.
        let folder = makeTemporaryFolder("lifebus-fuzz")
        defer { FolderEntries.removeTree(folder) }
        let found = try fuzz(
            "forgetful-scenes.json", in: folder, seed: 4, steps: 30, profile: "ios17", facts: ["--fact", "scenes"])
        #expect(found.status == 1, "\(found.out)\(found.err)")
        #expect(found.out.contains("(fire scene reconnect com.example.ForgetfulScenes 1) broke an invariant: "
            + "com.example.ForgetfulScenes: session 1 reconnected after stateRestorationActivity without a "
            + "state-restored mark"), "\(found.out)")
        let scenario = try #require(readFile(found.folder + "/fuzz.yaml"))
        #expect(actions(scenario) == ["  - launch: \"com.example.ForgetfulScenes\"", "  - fire: \"home\"",
                                      "  - fire: \"scene reclaim com.example.ForgetfulScenes 1\"",
                                      "  - fire: \"scene reconnect com.example.ForgetfulScenes 1\""],
                "\(scenario)")
        let replay = try runCLI(["run", found.folder + "/fuzz.yaml"])
        #expect(replay.status == 1, "\(replay.out)\(replay.err)")
        #expect(replay.out.contains("FAIL mark state-restored  expected: present"), "\(replay.out)")
    }

    @Test func everyProfileIsFuzzedWithTheSameSeedAndKeepsItsOwnReproducer() throws {
        let folder = makeTemporaryFolder("lifebus-fuzz")
        defer { FolderEntries.removeTree(folder) }
        let found = try fuzz("forgetful.json", in: folder, seed: 34, steps: 15, profile: "all")
        #expect(found.status == 1, "\(found.out)\(found.err)")
        for (profile, callback) in [("ios3", "willTerminate"), ("ios4", "didEnterBackground"),
                                    ("ios7", "didEnterBackground")] {
            #expect(found.out.contains("fuzzing with seed 34: 15 steps under \(profile)"), "\(found.out)")
            let file = "\(found.folder)/fuzz-\(profile).yaml"
            #expect(found.out.contains("  \(profile)  broke an invariant: lifebus run \(file)"), "\(found.out)")
            let scenario = try #require(readFile(file))
            #expect(scenario.contains("profiles: [\"\(profile)\"]"), "\(scenario)")
            #expect(scenario.contains("\(callback) answered without a state-saved mark"), "\(scenario)")
            #expect(actions(scenario).count == 3, "\(scenario)")
            let replay = try runCLI(["run", file])
            #expect(replay.status == 1 && replay.out.contains("FAIL  fuzz-34 [\(profile)]"), "\(replay.out)")
        }
        #expect(readFile(found.folder + "/fuzz.yaml") == nil, "one file per profile")
    }

    @Test func theAppThatSavesAfterItsBudgetIsKilledByTheWatchdogAndShrunk() throws {
        // ForgetfulLate dawdles 3 s before each save: seed 2's step 7 advances the clock by 5 s, the budget of the
        // willTerminate it is dawdling in, and the watchdog kills it. Shrinking keeps what that needs.
        let folder = makeTemporaryFolder("lifebus-fuzz")
        defer { FolderEntries.removeTree(folder) }
        let found = try fuzz("forgetful-late.json", in: folder, seed: 2, steps: 8)
        #expect(found.status == 1, "\(found.out)\(found.err)")
        #expect(found.out.contains("step 7 (advance 5s) broke an invariant: com.example.ForgetfulLate: "
            + "willTerminate watchdog: not answered within its 5000 ms budget"), "\(found.out)")
        let scenario = try #require(readFile(found.folder + "/fuzz.yaml"))
        #expect(actions(scenario) == ["  - launch: \"com.example.ForgetfulLate\"",
                                      "  - fire: \"terminate com.example.ForgetfulLate\"", "  - advance: \"5s\""],
                "\(scenario)")
        let replay = try runCLI(["run", found.folder + "/fuzz.yaml"])
        #expect(replay.status == 1, "\(replay.out)\(replay.err)")
        #expect(replay.out.contains("recorded: watchdog"), "\(replay.out)")
    }

    @Test func theFuzzerNeedsASeedAndAnAppAndTakesNoFiles() throws {
        let app = "\(Self.manifests)/forgetful.json"
        for bad in [
            ["run", "--random", "1"], ["run", "--random", "1", "--app", app, "x.yaml"],
            ["run", "--random", "1", "--app", app, "--socket", "/s"],
            ["run", "--random", "1", "--app", app, "--steps", "0"],
            ["run", "x.yaml", "--fact", "saves=s"], ["run", "--random", "1", "--app", app, "--fact", "forgets=x"],
            ["run", "--random", "1", "--app", "/no/such/manifest.json"],
            ["run", "--random", "1", "--app", app, "--profile", "ios5"],
        ] {
            #expect(try runCLI(bad).status == 2, "\(bad)")
        }
    }

    @Test func aFactThatIsNoneOfItsFormsOrARestoreWithoutASaveIsAUsageError() throws {
        let app = "\(Self.manifests)/forgetful.json"
        let unknown = try runCLI(["run", "--random", "1", "--app", app, "--fact", "forgets=x"])
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("'forgets=x'") && unknown.err.contains("--fact"), "\(unknown.err)")
        let unsaved = try runCLI(["run", "--random", "1", "--app", app, "--fact", "restores=back"])
        #expect(unsaved.status == 2)
        #expect(unsaved.err.contains("--fact restores=… needs --fact saves=MARK"), "\(unsaved.err)")
    }

    @Test func theCorrectAppKeepsEveryInvariant() throws {
        let folder = makeTemporaryFolder("lifebus-fuzz")
        defer { FolderEntries.removeTree(folder) }
        let kept = try fuzz("returnmeto.json", in: folder, seed: 34, steps: 40)
        #expect(kept.status == 0, "\(kept.out)\(kept.err)")
        #expect(kept.out.contains("every invariant held over 40 steps (seed 34)"), "\(kept.out)")
        #expect(readFile(kept.folder + "/fuzz.yaml") == nil, "nothing to reproduce")
    }
}

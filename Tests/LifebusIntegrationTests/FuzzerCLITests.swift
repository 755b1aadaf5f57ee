import LifebusProtocol
import Testing

/// `lifebus run --random` against real brokers and real example apps: it finds the app that forgets to save on
/// `sms --reply` (Forgetful), shrinks the run to a handful of steps, and writes a scenario that `lifebus run` fails
/// the same way; the correct app (ReturnMeTo) keeps every invariant over as many steps.
@Suite struct FuzzerCLITests {
    private static let manifests = "\(TranscriptReplayTests.repositoryRoot)/Examples/manifests"
    private static let facts = ["--fact", "saves=state-saved", "--fact", "restores=state-restored:shown,draft"]

    /// `lifebus run --random SEED` of one app under ios7, its state files and reproducer in a folder of its own.
    private func fuzz(_ manifest: String, seed: Int, steps: Int) throws
        -> (status: Int32, out: String, err: String, folder: String)
    {
        let folder = makeTemporaryFolder("lifebus-fuzz")
        let result = try runCLI(
            ["run", "--random", "\(seed)", "--steps", "\(steps)", "--app", "\(Self.manifests)/\(manifest)",
             "--profile", "ios7", "-o", folder + "/fuzz.yaml"] + Self.facts,
            environment: ["LIFEBUS_STATE_DIR": folder])
        return (result.status, result.out, result.err, folder)
    }

    @Test func theForgetfulAppIsFoundAndItsReproducerFailsTheSameWay() throws {
        // Seed 34 replies to an SMS at step 6, after a crash and a relaunch: shrinking keeps only what it needs.
        let found = try fuzz("forgetful.json", seed: 34, steps: 15)
        #expect(found.status == 1, "\(found.out)\(found.err)")
        #expect(found.out.contains("fuzzing with seed 34"), "\(found.out)")
        #expect(found.out.contains("step 6 (fire sms --reply) broke an invariant: com.example.Forgetful: "
            + "didEnterBackground answered without a state-saved mark before it"), "\(found.out)")
        let scenario = try #require(readFile(found.folder + "/fuzz.yaml"))
        let actions = scenario.split(separator: "\n").drop { $0 != "steps:" }.filter {
            $0.hasPrefix("  - ") && !$0.hasPrefix("  - expect:") && !$0.hasPrefix("  - note:")
        }
        #expect(actions == ["  - launch: \"com.example.Forgetful\"", "  - fire: \"sms\"", "  - fire: \"sms --reply\""],
                "\(scenario)")

        let replay = try runCLI(["run", found.folder + "/fuzz.yaml"], environment: ["LIFEBUS_STATE_DIR": found.folder])
        #expect(replay.status == 1, "\(replay.out)\(replay.err)")
        #expect(replay.out.contains("FAIL mark  expected: mark state-saved"), "\(replay.out)")
    }

    @Test func theFuzzerNeedsASeedAndAnAppAndTakesNoFiles() throws {
        let app = "\(Self.manifests)/forgetful.json"
        for bad in [
            ["run", "--random", "1"], ["run", "--random", "1", "--app", app, "x.yaml"],
            ["run", "--random", "1", "--app", app, "--socket", "/s"],
            ["run", "--random", "1", "--app", app, "--steps", "0"],
            ["run", "x.yaml", "--fact", "saves=s"], ["run", "--random", "1", "--app", app, "--fact", "forgets=x"],
            ["run", "--random", "1", "--app", "/no/such/manifest.json"],
        ] {
            #expect(try runCLI(bad).status == 2, "\(bad)")
        }
    }

    @Test func theCorrectAppKeepsEveryInvariant() throws {
        let kept = try fuzz("returnmeto.json", seed: 34, steps: 40)
        #expect(kept.status == 0, "\(kept.out)\(kept.err)")
        #expect(kept.out.contains("every invariant held over 40 steps (seed 34)"), "\(kept.out)")
        #expect(readFile(kept.folder + "/fuzz.yaml") == nil, "nothing to reproduce")
    }
}

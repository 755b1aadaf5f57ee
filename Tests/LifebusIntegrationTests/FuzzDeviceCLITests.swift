import Testing

/// `lifebus run --random` reasons about the device its brokers are: with a device knob the generated steps are the
/// ones that device accepts, and under ios27 an app that does not adopt scenes is a failure the real broker
/// confirms (it refuses the launch), with a one-step reproducer — never a run that "held" without launching it.
@Suite struct FuzzDeviceCLITests {
    private static let manifests = "\(TranscriptReplayTests.repositoryRoot)/Examples/manifests"

    /// `lifebus run --random SEED` of one app with `arguments`, its state files and reproducers in a folder of its own.
    private func fuzz(_ manifest: String, seed: Int, steps: Int, _ arguments: [String])
        throws -> (status: Int32, out: String, err: String, folder: String)
    {
        let folder = makeTemporaryFolder("lifebus-fuzz-device")
        let result = try runCLI(
            ["run", "--random", "\(seed)", "--steps", "\(steps)", "--app", "\(Self.manifests)/\(manifest)",
             "-o", folder + "/fuzz.yaml"] + arguments,
            timeout: .seconds(120))
        return (result.status, result.out, result.err, folder)
    }

    @Test func aSeedThatStoppedOnTheConnectingDeviceHoldsOnIt() throws {
        // Seed 2 stopped at a `scene reconnect` the broker refused (sessionConnected) while the fuzzer's model knew
        // nothing of the knob: a background launch there connects a scene.
        let run = try fuzz("notesscenes.json", seed: 2, steps: 60, [
            "--profile", "ios17", "--fact", "scenes", "--fact", "pushes", "--background-launch-scene", "connects",
        ])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(run.out.contains("every invariant held over 60 steps (seed 2) under ios17"), "\(run.out)")
    }

    private static let refusal = "under ios27 com.example.DeepThoughts cannot launch: the app does not adopt "
        + "scenes, which this profile requires (sceneLifecycleRequired)"

    @Test func underIos27AnAppWithoutScenesFailsAndItsReproducerFailsTheSameWay() throws {
        let found = try fuzz("deepthoughts.json", seed: 7, steps: 10, ["--profile", "ios27", "--fact",
                                                                         "saves=state-saved"])
        #expect(found.status == 1, "\(found.out)\(found.err)")
        #expect(found.out.contains(Self.refusal), "\(found.out)")
        #expect(!found.out.contains("held"), "\(found.out)")
        let scenario = try #require(readFile(found.folder + "/fuzz.yaml"))
        #expect(scenario.contains("profiles: [\"ios27\"]"), "\(scenario)")
        #expect(scenario.split(separator: "\n").drop { $0 != "steps:" }.filter {
            $0.hasPrefix("  - ") && !$0.hasPrefix("  - note:")
        } == ["  - launch: \"com.example.DeepThoughts\""], "\(scenario)")
        let replay = try runCLI(["run", found.folder + "/fuzz.yaml"])
        #expect(replay.status == 1, "\(replay.out)\(replay.err)")
        #expect(replay.out.contains("FAIL  fuzz-7 [ios27]") && replay.out.contains("(sceneLifecycleRequired)"),
                "\(replay.out)")
    }

    @Test func everyProfileIsFuzzedAndTheIos27LineSaysTheAppCannotLaunch() throws {
        let found = try fuzz("deepthoughts.json", seed: 7, steps: 5, [
            "--profile", "all", "--fact", "saves=state-saved",
        ])
        #expect(found.status == 1, "\(found.out)\(found.err)")
        #expect(found.out.contains(Self.refusal), "\(found.out)")
        for profile in ["ios3", "ios4", "ios7", "ios13", "ios15", "ios17", "ios26"] {
            #expect(found.out.contains("  \(profile)  held over 5 steps"), "\(found.out)")
        }
        let file = "\(found.folder)/fuzz-ios27.yaml"
        #expect(found.out.contains("  ios27  com.example.DeepThoughts cannot launch: lifebus run \(file)"),
                "\(found.out)")
        #expect(readFile(file)?.contains("  - launch: \"com.example.DeepThoughts\"") == true)
    }

    @Test func anAppThatAdoptsScenesWithoutItsFactStopsTheRunAndSaysWhy() throws {
        // NotesScenes adopts scenes, but without `--fact scenes` the fuzzer's device cannot launch it under ios27;
        // the broker did, so the facts are wrong: a stop, not a finding.
        let run = try fuzz("notesscenes.json", seed: 1, steps: 5, ["--profile", "ios27"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("the fuzzer's device cannot launch com.example.NotesScenes under ios27, but the "
            + "broker launched it"), "\(run.err)")
        #expect(readFile(run.folder + "/fuzz.yaml") == nil, "nothing to reproduce")
    }
}

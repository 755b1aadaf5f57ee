import ArgumentParser
import LifebusFuzzing

/// The options of `lifebus run --random SEED`: the interruption fuzzer (`RandomRun`).
struct RandomRunOptions: ParsableArguments {
    @Option(name: .customLong("random"), help: ArgumentHelp(
        "Fuzz: run random legal steps generated from SEED (the seed alone reproduces the run) and check the "
            + "invariants at every step; on a failure, shrink it and write a reproducer. Under --profile P, or "
            + "with all under every profile, ios3 to ios27, in turn (the same seed each), on a device with the "
            + "device knobs given. An app the device cannot launch (under ios27, one that does not adopt scenes) "
            + "fails, its reproducer that launch.", valueName: "seed"))
    var seed: UInt64?

    @Option(help: ArgumentHelp(
        "Fuzz each seed from A to B in turn (as --random does one): a campaign CI runners split by range.",
        valueName: "A..B"))
    var seeds: SeedRange?

    /// The seeds to fuzz: `--random SEED`'s one, or `--seeds A..B`'s; `nil` when not fuzzing.
    var seedRange: ClosedRange<UInt64>? {
        seed.map { $0...$0 } ?? seeds?.range
    }

    @Option(help: "With --random: how many steps.") var steps = 50

    @Option(name: .customLong("app"), help: ArgumentHelp(
        "With --random: an app to fuzz, as its manifest file (repeatable).", valueName: "manifest"))
    var apps: [String] = []

    @Option(name: .customLong("fact"), help: ArgumentHelp(
        "With --random: a fact the apps declare (repeatable): saves=MARK (a MARK mark before every "
            + "didEnterBackground and willTerminate answer), restores=MARK[:KEY,...] (after a relaunch that "
            + "follows a save, a MARK mark whose KEYs equal the last save's; a scene reconnected after its "
            + "stateRestorationActivity, a MARK mark with the KEYs), scenes (the apps adopt scenes, and support "
            + "several, under the profiles that have them: the scene events are fuzzed too), task=ID[:AFTER] (the "
            + "apps register and submit the appRefresh task ID while they launch, beginning AFTER later: fire bgtask "
            + "is fuzzed too), processing=ID[:AFTER][:power][:network] (the apps register and submit the "
            + "processing task ID, requiring external power and the network as given: fire power and fire network are "
            + "fuzzed too, and the task never runs while a requirement is unmet), pushes (fire push is fuzzed too), "
            + "taps (fire push --tap is fuzzed too), protected=MARK (a MARK mark is a protected write "
            + "that failed).", valueName: "fact"))
    var facts: [AppFact] = []

    @Option(name: .customShort("o"), help: ArgumentHelp(
        "With --random: where to write the reproducer (default fuzz-SEED.yaml; with several profiles, "
            + "one per failing profile: fuzz-SEED-ios4.yaml).", valueName: "file"))
    var reproducer: String?

    func validate() throws {
        guard seed == nil || seeds == nil else { throw ValidationError("--random SEED or --seeds A..B, not both") }
        guard seedRange != nil else {
            if !apps.isEmpty || !facts.isEmpty || reproducer != nil {
                throw ValidationError("--app, --fact and -o go with --random SEED or --seeds A..B")
            }
            return
        }
        guard steps >= 1 else { throw ValidationError("--steps must be at least 1") }
        guard !apps.isEmpty else { throw ValidationError("fuzzing needs at least one --app MANIFEST") }
        do throws(AppFacts.Failure) {
            _ = try AppFacts(facts)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// With `--random`, `lifebus run` takes no files and runs on private brokers only.
    func validate(files: [String], socket: String?, json: Bool) throws {
        guard files.isEmpty else { throw ValidationError("--random takes no scenario files: it makes its own") }
        guard socket == nil else { throw ValidationError("--random runs every try on a private broker: no --socket") }
        guard !json else { throw ValidationError("--random prints text; its reproducer is the file to keep") }
    }
}

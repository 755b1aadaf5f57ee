import Glibc
import LifebusCLI
import LifebusFuzzing
import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import LifebusSupervision

/// `lifebus run --random SEED` (or `--seeds A..B`): sets up the fuzzer (`LifebusFuzzing.Fuzzer`) from the options,
/// runs it for each seed under each selected profile with the scenario runner as its executor, prints what it found
/// and writes each failure's reproducer (and, with `--report`, a JSON report `lifebus merge` joins). Stateless.
enum RandomRun {
    /// How one seed's session under one profile ended.
    enum Outcome {
        case held(steps: Int)
        /// `what` broke: "broke an invariant", or why an app could not run at all.
        case broke(reproducer: String, what: String = "broke an invariant")
        case stopped(String)
    }

    /// Runs a session from each of `seeds` under each of `profiles` in turn, each with the same seed (on brokers
    /// given `sceneOrderSeed`, when set, which the printed replay commands repeat, and `knobs`, which the fuzzer's
    /// model shares and each reproducer file names); exit 0 when every invariant held under every profile, 1 when
    /// one broke or an app could not launch at all (its reproducer written), or a run stopped before its end.
    static func run(
        _ options: RandomRunOptions, seeds: ClosedRange<UInt64>, profiles: [Profile], report: String?,
        sceneOrderSeed: UInt64? = nil, knobs: DeviceKnobs = DeviceKnobs()
    ) throws {
        let replay = sceneOrderSeed.map { " --scene-order-seed \($0)" } ?? ""
        let facts = try AppFacts(options.facts)  // a set `RandomRunOptions.validate()` let through
        let apps = try options.apps.map(app(manifest:))
        var outcomes: [(seed: UInt64, profile: Profile, outcome: Outcome)] = []
        for seed in seeds {
            for profile in profiles {
                let fuzzer = Fuzzer(
                    seed: seed, stepCount: options.steps, profile: profile, apps: apps, facts: facts, knobs: knobs)
                let path = reproducerPath(options.reproducer, seed: seed, profile: profile,
                                          several: profiles.count > 1, severalSeeds: seeds.count > 1)
                outcomes.append((seed, profile, try fuzz(
                    fuzzer, reproducer: path, runner: ScenarioRunner(
                        broker: .own, sceneOrderSeed: sceneOrderSeed, knobs: knobs),
                    replay: replay)))
            }
        }
        if outcomes.count > 1 {
            print(seeds.count > 1 ? "per seed and profile:" : "per profile (seed \(seeds.lowerBound)):")
            for (seed, profile, outcome) in outcomes {
                let name = seeds.count > 1 ? "\(seed) \(profile.rawValue)" : profile.rawValue
                switch outcome {
                case .held(let steps): print("  \(name)  held over \(steps) steps")
                case .broke(let path, let what): print("  \(name)  \(what): lifebus run \(path)\(replay)")
                case .stopped(let why): print("  \(name)  stopped: \(why)")
                }
            }
        }
        if let report {
            let runs = outcomes.map { FuzzReport.Run(seed: $0.seed, profile: $0.profile, outcome: $0.outcome) }
            try OutputFile.write(FuzzReport.json(runs).jsonText + "\n", to: report)
        }
        if outcomes.contains(where: { if case .held = $0.outcome { false } else { true } }) {
            throw CLIExitStatus.conditionNotMet
        }
    }

    /// One profile's session on `runner`: runs it, prints what it found and, on a failure, writes the reproducer
    /// to `path` (its replay command ending with `replay`).
    private static func fuzz(_ fuzzer: Fuzzer, reproducer path: String, runner: ScenarioRunner, replay: String) throws
        -> Outcome {
        let seed = fuzzer.seed
        let profile = fuzzer.profile
        print("fuzzing with seed \(seed): \(fuzzer.stepCount) steps under \(profile.rawValue), apps "
            + fuzzer.apps.map(\.id).joined(separator: ", "))
        var first: ScenarioResult?
        let report = try fuzzer.run { steps in
            let result = runner.run(Scenario(name: "fuzz-\(seed)", profiles: [profile],
                                             apps: fuzzer.apps.map(\.app), steps: steps), profile: profile)
            if first == nil { first = result }
            return Self.entriesPerStep(result)
        }
        if let (app, refused) = report.unlaunchable.map({ ($0.app, $0.refusedByBroker) }) {
            guard refused, let scenario = report.reproducer else {
                let why = "the fuzzer's device cannot launch \(app) under \(profile.rawValue), but the broker "
                    + "launched it: do its facts say what it does (--fact scenes)?"
                StandardError.writeLine("lifebus: \(why)")
                return .stopped(why)
            }
            let reason = first.map { Self.refusal(of: app, in: $0) } ?? "the broker refused its launch"
            print("under \(profile.rawValue) \(app) cannot launch: \(reason)")
            write(scenario, to: path, replay: replay)
            return .broke(reproducer: path, what: "\(app) cannot launch")
        }
        guard let failure = report.failure, let shrunk = report.shrunk, let scenario = report.reproducer else {
            if let first, let stop = Self.stop(first) {
                StandardError.writeLine("lifebus: under \(profile.rawValue) the run stopped before its end: \(stop)")
                return .stopped(stop)
            }
            print("every invariant held over \(report.steps.count) steps (seed \(seed)) under \(profile.rawValue)")
            return .held(steps: report.steps.count)
        }
        print("step \(failure.step + 1) (\(report.steps[failure.step].summary)) broke an "
            + "invariant: \(failure.violation)")
        print("shrunk to \(shrunk.count) steps in \(report.shrinkRuns) runs:")
        write(scenario, to: path, replay: replay)
        return .broke(reproducer: path)
    }

    /// Prints the reproducer `scenario` and writes it to `path` (its manifests named relative to it), with the
    /// command that replays it (ending with `replay`).
    private static func write(_ scenario: Scenario, to path: String, replay: String) {
        let yaml = ScenarioWriter.yaml(Reproducer.relocated(scenario, to: resolvedFolder(of: path)))
        print(yaml, terminator: "")
        do {
            try TextFile.write(yaml, to: path)
        } catch {
            StandardError.writeLine("lifebus: cannot write the reproducer to \(path): \(error)")
        }
        print("reproducer written to \(path): lifebus run \(path)\(replay)")
    }

    /// Where a seed's reproducer under a profile goes: `-o FILE` (default `fuzz-SEED.yaml`); with several profiles,
    /// the profile before the extension (`fuzz-SEED-ios4.yaml`), so each failing profile keeps its own; with several
    /// seeds and `-o FILE`, the seed too (`FILE-SEED.yaml`).
    static func reproducerPath(
        _ option: String?, seed: UInt64, profile: Profile, several: Bool, severalSeeds: Bool = false
    ) -> String {
        var path = option ?? "fuzz-\(seed).yaml"
        if severalSeeds, option != nil { path = inserting("-\(seed)", into: path) }
        return several ? inserting("-\(profile.rawValue)", into: path) : path
    }

    /// `path` with `suffix` before its file name's extension (at its end when it has none).
    private static func inserting(_ suffix: String, into path: String) -> String {
        let name = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[name...].lastIndex(of: "."), dot > name else { return path + suffix }
        return "\(path[..<dot])\(suffix)\(path[dot...])"
    }

    /// The journal entries of each step up to the first that failed (a step the broker refused or that timed out:
    /// past it the run says nothing about the apps); none when the run did not start.
    private static func entriesPerStep(_ result: ScenarioResult) -> [[JournalEntry]] {
        guard result.failure == nil else { return [] }
        return result.steps.prefix { $0.status == .passed }.map(\.entries)
    }

    /// Why a run ended before its last step (a step refused or timed out, the broker would not start); `nil` when
    /// it ran them all.
    private static func stop(_ result: ScenarioResult) -> String? {
        if let failure = result.failure { return failure }
        return result.failedStep.map { step in
            "step \(step.number) (\(step.step.summary)): \(step.message ?? "failed")"
        }
    }

    /// What the broker said when it refused `app`'s launch in `result`: its reason without the event it names
    /// (`the app does not adopt scenes, which this profile requires (sceneLifecycleRequired)`).
    private static func refusal(of app: String, in result: ScenarioResult) -> String {
        let message = stop(result) ?? "the broker refused its launch"
        return message.ranges(of: "app \(app): ").last.map { String(message[$0.upperBound...]) } ?? message
    }

    /// The folder a reproducer is written to, absolute and resolved (`realpath`, as the manifests' paths are); the
    /// working directory's when `path` names no folder or it cannot be resolved (then writing fails and says so).
    private static func resolvedFolder(of path: String) -> String {
        let folder = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        guard let resolved = realpath(folder, nil) else { return folder }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The app a manifest file installs: its id (`AppManifest.load`, which checks the whole manifest, its variables
    /// this run's) and the manifest by absolute, resolved path (the reproducer names it relative to itself).
    private static func app(manifest path: String) throws -> (id: String, app: ScenarioApp) {
        guard let resolved = realpath(path, nil) else {
            StandardError.writeLine("lifebus: --app \(path): \(String(cString: strerror(errno)))")
            throw CLIExitStatus.usage
        }
        defer { free(resolved) }
        let absolute = String(cString: resolved)
        do {
            let manifest = try AppManifest.load(absolute, environment: ProcessEnvironment.current)
            return (manifest.id, .manifest(path: absolute))
        } catch {
            StandardError.writeLine("lifebus: --app \(path): \(error)")
            throw CLIExitStatus.usage
        }
    }
}

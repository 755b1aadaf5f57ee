import Glibc
import LifebusCLI
import LifebusFuzzing
import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import LifebusSupervision

/// `lifebus run --random SEED`: sets up the fuzzer (`LifebusFuzzing.Fuzzer`) from the options, runs it under each
/// selected profile with the scenario runner as its executor, prints what it found per profile and writes each
/// failure's reproducer. Stateless.
enum RandomRun {
    /// How one profile's session ended.
    private enum Outcome {
        case held(steps: Int)
        case broke(reproducer: String)
        case stopped(String)
    }

    /// Runs a session from `seed` under each of `profiles` in turn, each with the same seed;
    /// exit 0 when every invariant held under every profile, 1 when one broke (its reproducer written) or a run
    /// stopped before its end.
    static func run(_ options: RandomRunOptions, seed: UInt64, profiles: [Profile]) throws {
        let facts = try AppFacts(options.facts)  // a set `RandomRunOptions.validate()` let through
        let apps = try options.apps.map(app(manifest:))
        let outcomes = try profiles.map { profile in
            let fuzzer = Fuzzer(seed: seed, stepCount: options.steps, profile: profile, apps: apps, facts: facts)
            let path = reproducerPath(options.reproducer, seed: seed, profile: profile, several: profiles.count > 1)
            return (profile, try fuzz(fuzzer, reproducer: path))
        }
        if profiles.count > 1 {
            print("per profile (seed \(seed)):")
            for (profile, outcome) in outcomes {
                switch outcome {
                case .held(let steps): print("  \(profile.rawValue)  held over \(steps) steps")
                case .broke(let path): print("  \(profile.rawValue)  broke an invariant: lifebus run \(path)")
                case .stopped(let why): print("  \(profile.rawValue)  stopped: \(why)")
                }
            }
        }
        if outcomes.contains(where: { if case .held = $0.1 { false } else { true } }) {
            throw CLIExitStatus.conditionNotMet
        }
    }

    /// One profile's session: runs it, prints what it found and, on a failure, writes the reproducer to `path`.
    private static func fuzz(_ fuzzer: Fuzzer, reproducer path: String) throws -> Outcome {
        let seed = fuzzer.seed
        let profile = fuzzer.profile
        print("fuzzing with seed \(seed): \(fuzzer.stepCount) steps under \(profile.rawValue), apps "
            + fuzzer.apps.map(\.id).joined(separator: ", "))
        let runner = ScenarioRunner(broker: .own)
        var first: ScenarioResult?
        let report = try fuzzer.run { steps in
            let result = runner.run(Scenario(name: "fuzz-\(seed)", profiles: [profile],
                                             apps: fuzzer.apps.map(\.app), steps: steps), profile: profile)
            if first == nil { first = result }
            return Self.entriesPerStep(result)
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
        let yaml = ScenarioWriter.yaml(scenario)
        print(yaml, terminator: "")
        do {
            try TextFile.write(yaml, to: path)
        } catch {
            StandardError.writeLine("lifebus: cannot write the reproducer to \(path): \(error)")
        }
        print("reproducer written to \(path): lifebus run \(path)")
        return .broke(reproducer: path)
    }

    /// Where a profile's reproducer goes: `-o FILE` (default `fuzz-SEED.yaml`); with several profiles, the
    /// profile before the extension (`fuzz-SEED-ios4.yaml`), so each failing profile keeps its own.
    static func reproducerPath(_ option: String?, seed: UInt64, profile: Profile, several: Bool) -> String {
        let path = option ?? "fuzz-\(seed).yaml"
        guard several else { return path }
        let name = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[name...].lastIndex(of: "."), dot > name else { return path + "-\(profile.rawValue)" }
        return "\(path[..<dot])-\(profile.rawValue)\(path[dot...])"
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

    /// The app a manifest file installs: its id (`AppManifest.load`, which checks the whole manifest) and the
    /// manifest by absolute path, so the reproducer runs from any folder.
    private static func app(manifest path: String) throws -> (id: String, app: ScenarioApp) {
        guard let resolved = realpath(path, nil) else {
            StandardError.writeLine("lifebus: --app \(path): \(String(cString: strerror(errno)))")
            throw CLIExitStatus.usage
        }
        defer { free(resolved) }
        let absolute = String(cString: resolved)
        do {
            return (try AppManifest.load(absolute).id, .manifest(path: absolute))
        } catch {
            StandardError.writeLine("lifebus: --app \(path): \(error)")
            throw CLIExitStatus.usage
        }
    }
}

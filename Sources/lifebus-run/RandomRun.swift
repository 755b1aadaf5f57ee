import Glibc
import LifebusCLI
import LifebusCore
import LifebusFuzzing
import LifebusIO
import LifebusProtocol
import LifebusScenario
import LifebusSupervision

/// `lifebus run --random SEED`: sets up the fuzzer (`LifebusFuzzing.Fuzzer`) from the options, runs it with the
/// scenario runner as its executor, prints what it found and writes the reproducer. Stateless.
enum RandomRun {
    /// Runs the session under `profile` (`all`: `ios7`, the default profile); exit 0 when every invariant held, 1
    /// when one broke (the reproducer written).
    static func run(_ options: RandomRunOptions, seed: UInt64, profile name: String) throws {
        let profile = Profile(rawValue: name) ?? .ios7
        let facts: AppFacts
        do {
            facts = try AppFacts(parsing: options.facts)
        } catch {
            StandardError.writeLine("lifebus: \(error)")
            throw CLIExitStatus.usage
        }
        let apps = try options.apps.map(app(manifest:))
        let fuzzer = Fuzzer(seed: seed, stepCount: options.steps, profile: profile, apps: apps, facts: facts)
        print("fuzzing with seed \(seed): \(options.steps) steps under \(profile.rawValue), apps "
            + apps.map(\.id).joined(separator: ", "))
        let runner = ScenarioRunner(broker: .own)
        var first: ScenarioResult?
        let report = try fuzzer.run { steps in
            let result = runner.run(Scenario(name: "fuzz-\(seed)", profiles: [profile], apps: apps.map(\.app),
                                             steps: steps), profile: profile)
            if first == nil { first = result }
            return Self.entriesPerStep(result)
        }
        guard let failure = report.failure, let shrunk = report.shrunk, let scenario = report.reproducer else {
            if let first, let stop = Self.stop(first) {
                StandardError.writeLine("lifebus: the run stopped before its end: \(stop)")
                throw CLIExitStatus.conditionNotMet
            }
            print("every invariant held over \(report.steps.count) steps (seed \(seed))")
            return
        }
        print("step \(failure.step + 1) (\(report.steps[failure.step].summary)) broke an "
            + "invariant: \(failure.violation)")
        print("shrunk to \(shrunk.count) steps in \(report.shrinkRuns) runs:")
        let yaml = ScenarioWriter.yaml(scenario)
        print(yaml, terminator: "")
        let path = options.reproducer ?? "fuzz-\(seed).yaml"
        do {
            try TextFile.write(yaml, to: path)
        } catch {
            StandardError.writeLine("lifebus: cannot write the reproducer to \(path): \(error)")
        }
        print("reproducer written to \(path): lifebus run \(path)")
        throw CLIExitStatus.conditionNotMet
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

    /// The app a manifest file installs: its id (read from the file) and the manifest by absolute path, so the
    /// reproducer runs from any folder.
    private static func app(manifest path: String) throws -> (id: String, app: ScenarioApp) {
        guard let resolved = realpath(path, nil) else {
            StandardError.writeLine("lifebus: --app \(path): \(String(cString: strerror(errno)))")
            throw CLIExitStatus.usage
        }
        defer { free(resolved) }
        let absolute = String(cString: resolved)
        guard let bytes = try? SystemFiles.read(absolute, limit: 1024 * 1024), let json = try? JSONParser.parse(bytes),
              let id = json["id"]?.stringValue else {
            StandardError.writeLine("lifebus: --app \(path): not a readable app manifest with an id")
            throw CLIExitStatus.usage
        }
        return (id, .manifest(path: absolute))
    }
}

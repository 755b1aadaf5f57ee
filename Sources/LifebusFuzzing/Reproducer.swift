import LifebusCore
import LifebusProtocol
public import LifebusScenario

/// The scenario a fuzzer failure is written as, so that `lifebus run FILE` fails the same way: the shrunk steps,
/// with the broken invariant as `expect` steps around the last one (the step that broke it) — an `expect` of the
/// app alone before it (so the final expectation sees only what that step caused), then the expectation the
/// violation contradicts: the `saves` mark (notSaved), the `restores` mark with the last saved data (notRestored),
/// every transition `ok` (overBudget, a `beginBackgroundTask` not ended), the `BGTask` `completed` (one neither
/// completed nor expired in time), no `protected` mark (a protected write failed), or the processing task not
/// launched (`noTask`, when one ran with a requirement unmet: only the launch fails it, not the step's other
/// callbacks). When the last step is an `advance` right after a `fire`, the two stay together (the `note` and the
/// first `expect` go before the `fire`): the runner hands a `fire` whose answer waits for virtual time over to the
/// `advance` just after it, and only then. `shrunkFrom` is how many steps the shrinker started from: the generated
/// steps up to the one that broke the invariant (the steps after it never count). Its `description` is the command
/// that runs the session again, the device knobs' flags included, and its `knobs` those knobs, so the file alone
/// replays the device the failure happened on. Stateless.
public enum Reproducer {
    public static func scenario(steps: [ScenarioStep], shrunkFrom: Int, violation: Violation, fuzzer: Fuzzer)
        -> Scenario
    {
        let tail = handsOver(steps) ? 2 : 1
        var body = Array(steps.dropLast(tail))
        body.append(.note("fuzzer seed \(fuzzer.seed): the next step breaks an invariant: \(violation.detail)"))
        body.append(.expect(ScenarioExpectation(app: violation.app)))
        body += steps.suffix(tail)
        body.append(.expect(expectation(for: violation, facts: fuzzer.facts)))
        return Scenario(
            name: "fuzz-\(fuzzer.seed)",
            description: "\(command(fuzzer)): \(violation.description); shrunk from \(shrunkFrom) to "
                + "\(steps.count) steps",
            profiles: [fuzzer.profile], apps: fuzzer.apps.map(\.app), steps: body, knobs: fuzzer.knobs)
    }

    /// The scenario of an app the device refuses to launch (`Fuzzer.Report.unlaunchable`): its `launch` alone, which
    /// `lifebus run FILE` fails the same way (under ios27, an app that does not adopt scenes: S30).
    public static func scenario(unlaunchable app: String, fuzzer: Fuzzer) -> Scenario {
        let what = "under \(fuzzer.profile.rawValue) \(app) cannot launch"
        return Scenario(
            name: "fuzz-\(fuzzer.seed)", description: "\(command(fuzzer)): \(what)", profiles: [fuzzer.profile],
            apps: fuzzer.apps.map(\.app),
            steps: [.note("fuzzer seed \(fuzzer.seed): \(what): the device refuses its launch"), .launch(app)],
            knobs: fuzzer.knobs)
    }

    /// The command that runs `fuzzer`'s session again: its seed, steps, profile, apps, facts and device knobs.
    static func command(_ fuzzer: Fuzzer) -> String {
        let apps = fuzzer.apps.map { app in
            if case .manifest(let path) = app.app { "--app \(path)" } else { "--app \(app.id)" }
        }
        let session = "--random \(fuzzer.seed) --steps \(fuzzer.stepCount) --profile \(fuzzer.profile.rawValue)"
        let facts = fuzzer.facts.options.map { "--fact \($0)" }
        return (["lifebus run \(session)"] + apps + facts + fuzzer.knobs.arguments).joined(separator: " ")
    }

    /// `scenario` with its manifests named relative to `folder`, the reproducer file's (absolute and resolved, as
    /// the manifests' paths are), so `lifebus run` finds them from any working directory and the files move together.
    public static func relocated(_ scenario: Scenario, to folder: String) -> Scenario {
        var relocated = scenario
        relocated.apps = scenario.apps.map { app in
            guard case .manifest(let path) = app, path.hasPrefix("/") else { return app }
            return .manifest(path: RelativePath.of(path, from: folder))
        }
        return relocated
    }

    /// Whether the steps end with a `fire` and an `advance`.
    private static func handsOver(_ steps: [ScenarioStep]) -> Bool {
        guard steps.count >= 2, case .advance = steps[steps.count - 1], case .fire = steps[steps.count - 2] else {
            return false
        }
        return true
    }

    private static func expectation(for violation: Violation, facts: AppFacts) -> ScenarioExpectation {
        switch violation.kind {
        case .notSaved:
            return ScenarioExpectation(app: violation.app, mark: ScenarioMark(name: facts.saves ?? ""))
        case .notRestored:
            return ScenarioExpectation(app: violation.app,
                                       mark: ScenarioMark(name: facts.restores ?? "", data: violation.expected ?? [:]))
        case .overBudget, .taskNotEnded(identifier: nil):
            return ScenarioExpectation(app: violation.app, outcome: .outcome(.ok))
        case .taskNotEnded(let identifier?):
            return ScenarioExpectation(app: violation.app,
                                       task: ScenarioTask(identifier: identifier, outcome: .completed))
        case .protectedWriteFailed:
            return ScenarioExpectation(app: violation.app, noMark: facts.protectedWriteFailure)
        case .processingRanUnmet(let identifier):
            // The task was not launched by the last step; whatever else that step sends the app is not the violation.
            return ScenarioExpectation(app: violation.app, noTask: identifier)
        }
    }
}

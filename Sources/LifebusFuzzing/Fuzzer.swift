public import LifebusLifecycle
public import LifebusProtocol
public import LifebusScenario

/// One `lifebus run --random` session, independent of how steps are run: generate `stepCount` legal steps from
/// `seed`, run them (`execute`: a fresh broker per call, so a run is a pure function of its steps under the manual
/// clock), check the invariants step by step, and on a failure shrink the steps to a minimal sequence that fails
/// the same way and build the reproducer scenario.
///
/// The device model, the generator and the shrinker's legality check all reason about the device the run drives:
/// the profile with `knobs`, the choices the run's brokers are started with. An app the model cannot launch on a
/// fresh device (under ios27, one that does not adopt scenes: S30) is not fuzzed: no step could ever run it, so
/// the session tries that one launch on a broker instead and reports what the broker did (`Report.unlaunchable`).
///
/// A plain value holding the session's settings. Shrink candidates the device model refuses (a step made illegal
/// by dropping what it needed) are not run: they count as passing.
public struct Fuzzer: Sendable {
    /// Runs `steps` on a fresh broker; returns the journal entries each step caused, in order — fewer than the
    /// steps when the run stopped at a step that failed for another reason (then no invariant is judged past it).
    public typealias Execute = ([ScenarioStep]) throws -> [[JournalEntry]]

    public var seed: UInt64
    public var stepCount: Int
    public var profile: Profile
    /// The apps as the scenario names them, with their ids.
    public var apps: [(id: String, app: ScenarioApp)]
    public var facts: AppFacts
    /// The device knobs the run's brokers are started with (`DeviceKnobs`: each `nil` the profile's own).
    public var knobs: DeviceKnobs

    public init(seed: UInt64, stepCount: Int, profile: Profile, apps: [(id: String, app: ScenarioApp)],
                facts: AppFacts, knobs: DeviceKnobs = DeviceKnobs()) {
        self.seed = seed
        self.stepCount = stepCount
        self.profile = profile
        self.apps = apps
        self.facts = facts
        self.knobs = knobs
    }

    /// What a session found.
    public struct Report: Sendable {
        /// The generated steps.
        public var steps: [ScenarioStep]
        /// The first broken invariant and the index of the step that broke it; `nil` when all held.
        public var failure: (step: Int, violation: Violation)?
        /// The shrunk steps (ending with the one that breaks the invariant) and how many runs shrinking took.
        public var shrunk: [ScenarioStep]?
        public var shrinkRuns = 0
        /// The scenario that reproduces the failure with `lifebus run FILE`.
        public var reproducer: Scenario?
        /// The first app the model cannot launch on a fresh device, when there is one: then `steps` is that app's
        /// `launch` alone, the only step run. `refusedByBroker`: the broker refused it too (the failure: `reproducer`
        /// is that launch, which `lifebus run FILE` fails the same way); otherwise the model is wrong about the app
        /// (its facts say less than it does: e.g. it adopts scenes without `--fact scenes`).
        public var unlaunchable: (app: String, refusedByBroker: Bool)?
    }

    /// The generated steps for this seed (what `run` runs first).
    public var steps: [ScenarioStep] {
        var generator = StepGenerator(seed: seed, profile: profile, apps: apps.map(\.id), facts: facts, knobs: knobs)
        return generator.steps(stepCount)
    }

    /// The apps the device model refuses to launch on a fresh device, in order.
    public var unlaunchableApps: [String] {
        let model = DeviceModel(profile: profile, apps: apps.map(\.id), facts: facts, knobs: knobs)
        return apps.map(\.id).filter { !model.accepts(.launch($0)) }
    }

    public func run(execute: Execute) throws -> Report {
        if let app = unlaunchableApps.first {
            let launch = ScenarioStep.launch(app)
            var report = Report(steps: [launch])
            let refused = try execute([launch]).isEmpty
            report.unlaunchable = (app, refused)
            if refused { report.reproducer = Reproducer.scenario(unlaunchable: app, fuzzer: self) }
            return report
        }
        let steps = steps
        var report = Report(steps: steps)
        guard let failure = try firstViolation(steps, execute: execute) else { return report }
        report.failure = failure
        var verdicts: [String: Bool] = [:]  // by the candidate's steps as the file writes them: each runs once
        let shrunk = try Shrinker.shrink(Array(steps[...failure.step]), simplify: Self.simplify) { candidate in
            guard isLegal(candidate) else { return false }
            let key = candidate.map(\.summary).joined(separator: "\n")
            if let verdict = verdicts[key] { return verdict }
            let verdict = try firstViolation(candidate, execute: execute)?.violation
                .isSameFailure(as: failure.violation) ?? false
            verdicts[key] = verdict
            return verdict
        }
        let final = try firstViolation(shrunk, execute: execute)
        report.shrunk = final.map { Array(shrunk[...$0.step]) } ?? shrunk
        report.shrinkRuns = verdicts.count
        report.reproducer = Reproducer.scenario(
            steps: report.shrunk ?? shrunk, shrunkFrom: failure.step + 1,
            violation: final?.violation ?? failure.violation, fuzzer: self)
        return report
    }

    /// The first step whose entries break an invariant, with what it broke.
    public func firstViolation(_ steps: [ScenarioStep], execute: Execute) throws -> (step: Int, violation: Violation)? {
        var checker = InvariantChecker(facts: facts)
        let perStep = try execute(steps)
        for (index, entries) in perStep.enumerated() {
            checker.observe(steps[index])
            if let violation = checker.check(entries).first { return (index, violation) }
        }
        return nil
    }

    /// Whether the device model accepts every step in order, and every `launch` and `relaunch` leaves its app
    /// active (what the runner waits for).
    func isLegal(_ steps: [ScenarioStep]) -> Bool {
        var model = DeviceModel(profile: profile, apps: apps.map(\.id), facts: facts, knobs: knobs)
        return steps.allSatisfy { step in
            guard model.apply(step) else { return false }
            switch step {
            case .launch(let app), .relaunch(let app): return model.state(of: AppID(app)) == .active
            default: return true
            }
        }
    }

    /// A simpler variant of a step: a clock advance halved, down to 250 ms.
    static func simplify(_ step: ScenarioStep) -> [ScenarioStep] {
        guard case .advance(let duration) = step, duration > .milliseconds(250) else { return [] }
        return [.advance(max(duration / 2, .milliseconds(250)))]
    }
}

public import LifebusExpectation
public import LifebusLifecycle
public import LifebusProtocol

/// What running one scenario under one profile came to: each step's result (with the journal entries it caused,
/// for reports and for the fuzzer's invariants), the whole journal of the run (for timelines), and how long it took.
///
/// A plain value. Invariant: `passed` is true exactly when `failure` is nil and no step failed; a step after the
/// first failed one is `.skipped` (the device is no longer where the scenario assumes).
public struct ScenarioResult: Sendable, Equatable {
    public var scenario: String
    public var profile: Profile
    public var steps: [ScenarioStepResult]
    /// Why the run could not start or was cut short (the broker would not start, a manifest would not install).
    public var failure: String?
    /// Every journal entry of the run, oldest first.
    public var entries: [JournalEntry]
    /// Wall-clock seconds the run took.
    public var seconds: Double

    public init(
        scenario: String, profile: Profile, steps: [ScenarioStepResult] = [], failure: String? = nil,
        entries: [JournalEntry] = [], seconds: Double = 0
    ) {
        self.scenario = scenario
        self.profile = profile
        self.steps = steps
        self.failure = failure
        self.entries = entries
        self.seconds = seconds
    }

    public var passed: Bool {
        failure == nil && steps.allSatisfy { $0.status != .failed }
    }

    /// The first failed step, if any.
    public var failedStep: ScenarioStepResult? {
        steps.first { $0.status == .failed }
    }
}

/// One step's result. A plain value: the step, what became of it, the checks it made (an `expect`'s assertions,
/// expected beside recorded), a message when the broker refused or a wait timed out, and the journal entries
/// recorded while it ran (oldest first).
public struct ScenarioStepResult: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable {
        case passed
        case failed
        case skipped
    }

    /// The step's place in the scenario, from 1.
    public var number: Int
    public var step: ScenarioStep
    public var status: Status
    /// The app the step was about, when it names or implies one.
    public var app: String?
    public var checks: [Expectation.Result]
    public var message: String?
    public var entries: [JournalEntry]

    public init(
        number: Int, step: ScenarioStep, status: Status, app: String? = nil, checks: [Expectation.Result] = [],
        message: String? = nil, entries: [JournalEntry] = []
    ) {
        self.number = number
        self.step = step
        self.status = status
        self.app = app
        self.checks = checks
        self.message = message
        self.entries = entries
    }
}

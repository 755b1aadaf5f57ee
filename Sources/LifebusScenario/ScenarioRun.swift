import Glibc
import LifebusContainment
import LifebusCore
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// One run of a scenario in progress: the session, where the journal stood before each step, and the bookkeeping the
/// steps need (the current app, each app's last `expect`).
///
/// Owned by `ScenarioRunner.run` for the length of one run; used from its thread. Invariant: `lastSeq` is the newest
/// journal entry seen so far, so each step's entries are exactly those after the previous step's.
struct ScenarioRun {
    let scenario: Scenario
    let profile: Profile
    let session: ScenarioSession
    let runner: ScenarioRunner
    private(set) var startSeq: Int64 = 0
    private(set) var lastSeq: Int64 = 0
    /// Per app, and per scene of an app (`APP#SCENE`): the journal number its previous `expect` looked up to.
    var expectedUpTo: [String: Int64] = [:]
    /// A `fire` handed over to the `advance` after it: its callbacks wait for virtual time (an app that does not
    /// answer is killed at its budget only when the clock passes it), so the advance completes it.
    var pendingFire: (params: FireParams, call: PendingCall)?
    /// The app an `expect` without `app` is about: the last one launched, relaunched or activated, else the first
    /// one the scenario lists. Every value it takes is remembered in `apps`.
    var currentApp: String? {
        didSet { if let currentApp { apps.insert(currentApp) } }
    }
    /// The apps this run installed, listed or launched: on a running broker, those it ends when it is over.
    private(set) var apps: Set<String> = []

    init(scenario: Scenario, profile: Profile, session: ScenarioSession, runner: ScenarioRunner) {
        self.scenario = scenario
        self.profile = profile
        self.session = session
        self.runner = runner
    }

    mutating func execute(into result: inout ScenarioResult) {
        if case .running = runner.broker, case .failure(let error) = session.call(
            LifebusMethod.reset, .object([:]), timeout: runner.patience) {
            result.failure = "cannot reset the broker: \(error.message)"
            return
        }
        switch session.lastSeq() {
        case .success(let seq): (startSeq, lastSeq) = (seq, seq)
        case .failure(let error):
            result.failure = "cannot read the broker's history: \(error.message)"
            return
        }
        if let failure = installApps() {
            result.failure = failure
            result.entries = (try? session.entries(after: startSeq).get()) ?? []
            return
        }
        var failed = false
        for (index, step) in scenario.steps.enumerated() {
            guard !failed else {
                result.steps.append(ScenarioStepResult(number: index + 1, step: step, status: .skipped))
                continue
            }
            let next = index + 1 < scenario.steps.count ? scenario.steps[index + 1] : nil
            var stepResult = perform(step, number: index + 1, next: next)
            switch settledEntries(of: step, passed: stepResult.status == .passed, next: next) {
            case .success(let (entries, unended)):
                stepResult.entries = entries
                lastSeq = entries.last?.seq ?? lastSeq
                if !unended.isEmpty, stepResult.message == nil {
                    stepResult.message = "not ended within \(DurationText.format(ScenarioRunner.settleLimit)): "
                        + unended.joined(separator: ", ")
                }
            case .failure(let error) where stepResult.status == .passed:
                stepResult.status = .failed
                stepResult.message = "cannot read the broker's history: \(error.message)"
            case .failure:
                break
            }
            failed = stepResult.status == .failed
            result.steps.append(stepResult)
        }
        result.entries = (try? session.entries(after: startSeq).get()) ?? result.steps.flatMap(\.entries)
        if case .running = runner.broker { endApps() }
    }

    /// On a running broker (which outlives the run): ends every app of the run still running, as the user would
    /// from the app switcher, so the next scenario starts from apps that are not running (`reset` leaves them be).
    private func endApps() {
        for app in apps.sorted() {
            guard case .success(let status?) = session.status(app: app), status.state != .notRunning else { continue }
            _ = session.fire(FireParams(event: .terminate, app: app, byUser: true), timeout: runner.patience)
            _ = awaitExit(of: app)
        }
    }

    /// Installs the manifests; the first app listed becomes the current app. A message when one is refused.
    private mutating func installApps() -> String? {
        for app in scenario.apps {
            switch app {
            case .id(let id):
                apps.insert(id)
                currentApp = currentApp ?? id
            case .manifest(let path):
                let full = path.hasPrefix("/") ? path : runner.directory + "/" + path
                let params = InstallParams.file(full, text: try? SystemFiles.read(full, limit: 1 << 20),
                                                environment: ProcessEnvironment.current)
                switch session.call(LifebusMethod.install, .object(params), timeout: runner.patience) {
                case .success(let value):
                    if let id = value["id"]?.stringValue { apps.insert(id) }
                    currentApp = currentApp ?? value["id"]?.stringValue
                case .failure(let error) where error.message.contains("installed already"):
                    continue  // a running broker that has it from an earlier scenario
                case .failure(let error):
                    return "cannot install \(path): \(error.message)"
                }
            }
        }
        return nil
    }
}

import LifebusFuzzing
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// The generator's background events: with `--fact task=ID` it runs the apps' task (`fire bgtask APP ID`) where the
/// profile has `BGTaskScheduler`, with `--fact pushes` it pushes (silent and `--alert`), and without them neither, so
/// the seeds of runs without the facts keep their steps.
@Suite struct BackgroundStepTests {
    private static let apps = ["com.example.A", "com.example.B"]
    private static let refresh = "com.example.refresh"

    private func fired(_ facts: AppFacts, profile: Profile, seeds: ClosedRange<UInt64> = 1...3) -> [FireParams] {
        seeds.flatMap { seed in
            var generator = StepGenerator(seed: seed, profile: profile, apps: Self.apps, facts: facts)
            return generator.steps(300).compactMap { step in
                if case .fire(let params) = step { params } else { nil }
            }
        }
    }

    @Test(arguments: [Profile.ios13, .ios17, .ios26])
    func withTheirFactsTasksRunAndPushesArrive(profile: Profile) {
        let facts = AppFacts(task: (identifier: Self.refresh, after: nil), pushes: true)
        let fired = fired(facts, profile: profile)
        let runs = fired.filter { $0.event == .bgtask }
        #expect(!runs.isEmpty)
        #expect(runs.allSatisfy { $0.identifier == Self.refresh && $0.action == nil && $0.app != nil })
        #expect(fired.contains { $0.event == .push && $0.action == nil })
        #expect(fired.contains { $0.event == .push && $0.action == .alert })
        #expect(!fired.contains { $0.event == .push && $0.action == .tap }, "a tap only with --fact taps")
    }

    @Test(arguments: [Profile.ios13, .ios26])
    func withTapsNotificationsAreTappedAndNeverOnTheLockScreen(profile: Profile) {
        let fired = fired(AppFacts(taps: true), profile: profile)
        #expect(fired.contains { $0.event == .push && $0.action == .tap && $0.app != nil })
        #expect(fired.allSatisfy { $0.event != .push || $0.action == .tap }, "no silent or alert push without pushes")
        var locked = false
        for params in fired {
            if params.event == .sleep { locked = true }
            if params.event == .wake { locked = false }
            #expect(!(locked && params.event == .push), "a tap on the lock screen is refused")
        }
    }

    @Test(arguments: [Profile.ios3, .ios7])
    func withoutBGTaskSchedulerNoTaskRuns(profile: Profile) {
        let fired = fired(AppFacts(task: (identifier: Self.refresh, after: nil)), profile: profile)
        #expect(!fired.contains { $0.event == .bgtask })
    }

    @Test(arguments: Profile.allCases)
    func withoutTheirFactsNeitherIsFired(profile: Profile) {
        #expect(!fired(AppFacts(), profile: profile).contains {
            [.bgtask, .push, .power, .network].contains($0.event)
        })
        let refresh = fired(AppFacts(task: (identifier: Self.refresh, after: nil), pushes: true), profile: profile)
        #expect(!refresh.contains { $0.event == .power || $0.event == .network })
    }

    @Test(arguments: [Profile.ios13, .ios26])
    func withAProcessingTaskTheConditionsChangeEachTimeTheyAreDrawn(profile: Profile) {
        let facts = AppFacts(processing: ProcessingTaskFact(identifier: "com.example.clean", after: .seconds(60),
                                                             requiresExternalPower: true))
        let fired = fired(facts, profile: profile, seeds: 1...1)
        let power = fired.filter { $0.event == .power }.compactMap(\.action)
        let network = fired.filter { $0.event == .network }.compactMap(\.action)
        #expect(!power.isEmpty && !network.isEmpty)
        // The device starts plugged in and online; a drawn form always changes the condition.
        #expect(zip(power, [FireAction.external] + power).allSatisfy { $0 != $1 }, "\(power)")
        #expect(zip(network, [FireAction.online] + network).allSatisfy { $0 != $1 }, "\(network)")
        #expect(!fired.contains { $0.event == .bgtask && $0.identifier == "com.example.clean" })
    }
}

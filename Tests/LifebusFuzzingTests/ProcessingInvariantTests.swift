import LifebusFuzzing
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// "A processing task never runs while a requirement it declares is unmet" (`--fact processing=…`): the checker
/// follows the device's lock and conditions through the steps it is shown, and judges the task's `launched` records.
@Suite struct ProcessingInvariantTests {
    private static let facts = AppFacts(processing: ProcessingTaskFact(
        identifier: "clean", requiresExternalPower: true, requiresNetworkConnectivity: true))

    private static func launched(_ identifier: String) -> [JournalEntry] {
        [.task(BackgroundTaskRecord(
            seq: 1, app: "A", pid: 1, identifier: identifier, kind: .processing, event: .launched, success: nil,
            atMs: 0, wallMs: 0))]
    }

    private static func fire(_ event: FireEvent, _ action: FireAction? = nil) -> ScenarioStep {
        var params = FireParams(event: event)
        params.action = action
        return .fire(params)
    }

    @Test func aTaskRunOnALockedDeviceWithItsRequirementsMetHolds() {
        var checker = InvariantChecker(facts: Self.facts)
        checker.observe(Self.fire(.power, .battery))
        checker.observe(Self.fire(.sleep))
        checker.observe(Self.fire(.power, .external))
        #expect(checker.check(Self.launched("clean")).isEmpty)
    }

    @Test(arguments: [
        ([ScenarioStep](), "idle"),
        ([fire(.sleep), fire(.power, .battery)], "externalPower"),
        ([fire(.sleep), fire(.network, .offline)], "networkConnectivity"),
        ([fire(.sleep), fire(.wake)], "idle"),
    ])
    func aTaskRunWhileARequirementIsUnmetBreaksIt(steps: [ScenarioStep], unmet: String) {
        var checker = InvariantChecker(facts: Self.facts)
        steps.forEach { checker.observe($0) }
        let violations = checker.check(Self.launched("clean"))
        #expect(violations.map(\.kind) == [.processingRanUnmet(identifier: "clean")])
        #expect(violations.first?.detail.contains(unmet) == true, "\(violations)")
    }

    @Test func otherTasksAndRunsWithoutTheFactAreNotJudged() {
        var checker = InvariantChecker(facts: Self.facts)
        #expect(checker.check(Self.launched("refresh")).isEmpty)
        var plain = InvariantChecker(facts: AppFacts())
        #expect(plain.check(Self.launched("clean")).isEmpty)
    }
}

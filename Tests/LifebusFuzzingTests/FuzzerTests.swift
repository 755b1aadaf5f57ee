import LifebusCore
import LifebusFuzzing
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// A fuzzing session against a stand-in broker whose one app "forgets to save" on `sms --reply`: the failure is
/// found, shrunk to the three legal steps it needs, and written as a scenario that says what broke.
@Suite struct FuzzerTests {
    private static let app = "com.example.Forgetful"

    private static func fuzzer(seed: UInt64, steps: Int = 60) -> Fuzzer {
        Fuzzer(seed: seed, stepCount: steps, profile: .ios7, apps: [(app, .manifest(path: "/m/forgetful.json"))],
               facts: AppFacts(saves: "state-saved"))
    }

    /// Each step's entries: once the app was launched, `sms --reply` sends it to the background without a save;
    /// nothing else records.
    private static func forgetful(_ steps: [ScenarioStep]) -> [[JournalEntry]] {
        var launched = false
        return steps.enumerated().map { index, step in
            if step == .launch(app) { launched = true }
            guard launched, case .fire(let params) = step, params.event == .sms, params.action == .reply else {
                return []
            }
            return [.transition(TransitionRecord(
                seq: Int64(index + 1), app: app, pid: 1, callback: .didEnterBackground,
                cause: EventCause(eventID: Int64(index + 1), event: "sms --reply"), from: .inactive, to: .background,
                firedMs: 0, sentMs: 0, answeredMs: 0, handlerMs: 0, budgetMs: 5000, outcome: .ok, wallMs: 0))]
        }
    }

    /// A seed whose steps reply to an SMS, found with the generator alone.
    private static var replyingSeed: UInt64 {
        (UInt64(1)...).first { seed in
            fuzzer(seed: seed).steps.contains { step in
                if case .fire(let params) = step { return params.event == .sms && params.action == .reply }
                return false
            }
        } ?? 0
    }

    @Test func theFailureIsFoundShrunkAndWrittenDown() throws {
        let fuzzer = Self.fuzzer(seed: Self.replyingSeed)
        let report = try fuzzer.run(execute: Self.forgetful)
        let failure = try #require(report.failure)
        #expect(failure.violation.kind == .notSaved(.didEnterBackground))
        #expect(report.shrunk == [.launch(Self.app), .fire(FireParams(event: .sms)),
                                  .fire(FireParams(event: .sms, action: .reply))])
        #expect(report.shrinkRuns > 0)
        let scenario = try #require(report.reproducer)
        #expect(scenario.profiles == [.ios7])
        #expect(scenario.apps == [.manifest(path: "/m/forgetful.json")])
        let saved = ScenarioExpectation(app: Self.app, mark: ScenarioMark(name: "state-saved"))
        #expect(scenario.steps.last == .expect(saved))
        #expect(failure.step + 1 < 60, "the steps after the failing one are not shrunk, so not counted")
        #expect(scenario.description?.hasSuffix("shrunk from \(failure.step + 1) to 3 steps") == true,
                "\(scenario.description ?? "")")
        let text = ScenarioWriter.yaml(scenario)
        let ending = """
              - expect: {"app":"com.example.Forgetful"}
              - fire: "sms --reply"
              - expect: {"app":"com.example.Forgetful","mark":{"name":"state-saved","data":{}}}

            """
        #expect(text.hasSuffix(ending), "\(text)")
    }

    @Test func aFireAndTheAdvanceItIsHandedOverToStayTogetherInTheReproducer() {
        let violation = Violation(app: Self.app, kind: .overBudget(.willTerminate), detail: "willTerminate watchdog")
        let terminate = ScenarioStep.fire(FireParams(event: .terminate, app: Self.app))
        let scenario = Reproducer.scenario(steps: [.launch(Self.app), terminate, .advance(.seconds(5))],
                                           shrunkFrom: 9, violation: violation, fuzzer: Self.fuzzer(seed: 2))
        #expect(scenario.steps == [
            .launch(Self.app), .note("fuzzer seed 2: the next step breaks an invariant: willTerminate watchdog"),
            .expect(ScenarioExpectation(app: Self.app)), terminate, .advance(.seconds(5)),
            .expect(ScenarioExpectation(app: Self.app, outcome: .outcome(.ok))),
        ])
    }

    @Test func anAppThatKeepsItsFactsPasses() throws {
        let report = try Self.fuzzer(seed: 3).run { steps in steps.map { _ in [] } }
        #expect(report.failure == nil && report.shrunk == nil && report.reproducer == nil)
        #expect(report.steps.count == 60)
    }
}

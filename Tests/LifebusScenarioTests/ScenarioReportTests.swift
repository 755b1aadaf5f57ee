import LifebusCore
import LifebusLifecycle
import LifebusProtocol
@testable import LifebusScenario
import LifebusExpectation
import LifebusTimeline
import Testing

/// The reports from results made by hand: where profiles differ, and JUnit text that stays well-formed XML.
@Suite struct ScenarioReportTests {
    static func transition(_ seq: Int64, _ callback: LifecycleCallback, _ to: LifecycleState) -> JournalEntry {
        .transition(TransitionRecord(
            seq: seq, app: "com.example.A", pid: 1, callback: callback, cause: EventCause(eventID: 1, event: "home"),
            from: .active, to: to, firedMs: 0, sentMs: 0, answeredMs: 1, handlerMs: nil, budgetMs: 5000,
            outcome: .ok, wallMs: 0, handlerFailed: false))
    }

    static func run(_ ios3: [JournalEntry], _ ios7: [JournalEntry]) -> ScenarioFileRun {
        let scenario = Scenario(name: "home", steps: [.launch("com.example.A"), .fire(FireParams(event: .home))])
        func result(_ profile: Profile, _ entries: [JournalEntry]) -> ScenarioResult {
            ScenarioResult(scenario: "home", profile: profile, steps: [
                ScenarioStepResult(number: 1, step: scenario.steps[0], status: .passed),
                ScenarioStepResult(number: 2, step: scenario.steps[1], status: .passed, entries: entries),
            ])
        }
        return ScenarioFileRun(
            file: "home.yaml", scenario: scenario, results: [result(.ios3, ios3), result(.ios7, ios7)])
    }

    @Test func theTableShowsOnlyTheStepsWhereTheProfilesDiffer() {
        let lines = ProfileDifferences.lines(Self.run(
            [Self.transition(1, .willResignActive, .inactive), Self.transition(2, .willTerminate, .notRunning)],
            [Self.transition(1, .willResignActive, .inactive), Self.transition(2, .didEnterBackground, .background)]))
        #expect(lines.count == 3)
        #expect(lines[0] == "profiles differ in home (home.yaml):")
        #expect(lines[2].hasPrefix("  2 fire home"))
        #expect(lines[2].contains("willResignActive, willTerminate → notRunning"))
        #expect(lines[2].hasSuffix("willResignActive, didEnterBackground → background"))
        let same = ProfileDifferences.lines(Self.run([], []))
        #expect(same == ["profiles agree in home (home.yaml): every step did the same under ios3, ios7"])
    }

    @Test func junitTextIsEscapedAndControlsReplaced() {
        #expect(XMLText.escape("a<b & \"c\" 'd'>\u{1}\t\n")
            == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}\t\n")
        #expect(JUnitReport.time(1.2345) == "1.235")
        #expect(JUnitReport.time(0.05) == "0.050")
        let xml = JUnitReport.xml([Self.run([], [])])
        #expect(xml.contains(#"<testsuite name="home.yaml" tests="2" failures="0" errors="0" skipped="0""#))
        #expect(xml.contains(#"<testcase name="home [ios3]" classname="home.yaml""#))
    }

    @Test func aFailedExpectNamesItsFailedChecksNotJustThatOneFailed() {
        var expectation = Expectation()
        expectation.mark = "restored"
        expectation.markData = [(key: "value", value: "hello")]
        expectation.states = [.active]
        let mark = JournalEntry.mark(MarkRecord(
            seq: 2, app: "com.example.A", pid: 1, name: "restored", data: ["value": ""], atMs: 1, wallMs: 0))
        let checks = expectation.check([mark], state: .active)
        #expect(ScenarioReport.failedChecksText(checks) == #"mark restored: expected value=hello, recorded value="""#)
        expectation.mark = "saved"
        #expect(ScenarioReport.failedChecksText(expectation.check([mark], state: .inactive))
            == "state: expected active, recorded inactive; "
                + "mark saved: expected value=hello, recorded absent (marks restored)")
        #expect(ScenarioReport.failedChecksText(expectation.check([], state: .active))
            == "mark saved: expected value=hello, recorded absent (no mark)")
    }
}

import LifebusLifecycle
import LifebusProtocol
import Testing

@testable import LifebusScenario

/// The migration diff on hand-made journals: a mark made in a callback that no longer comes is reported with that
/// callback; a mark made fewer times is reported on its own; a run that begins to fail is reported; nothing is
/// reported in the other direction (gains), between equal runs, or for a single profile.
@Suite struct MigrationDiffTests {
    /// A journal builder: transitions and marks of one app at increasing times.
    struct Journal {
        var entries: [JournalEntry] = []
        var clock = 0.0

        /// Steps of the clock between entries; 0 is a manual clock that was never advanced.
        var tick = 1.0

        mutating func call(
            _ callback: LifecycleCallback?, app: String = "A", marks: [String] = [], to: LifecycleState = .inactive
        ) {
            let sent = clock
            for name in marks {
                clock += tick
                entries.append(.mark(MarkRecord(
                    seq: Int64(entries.count + 1), app: app, pid: 1, name: name, data: nil, atMs: clock, wallMs: 0)))
            }
            clock += tick
            entries.append(.transition(TransitionRecord(
                seq: Int64(entries.count + 1), app: app, pid: 1, callback: callback, cause: nil, from: .active,
                to: to, firedMs: nil, sentMs: sent, answeredMs: clock, handlerMs: nil, budgetMs: 5000,
                outcome: .ok, wallMs: 0)))
            clock += tick
        }

        mutating func mark(_ name: String, app: String = "A") {
            clock += tick
            entries.append(.mark(MarkRecord(
                seq: Int64(entries.count + 1), app: app, pid: 1, name: name, data: nil, atMs: clock, wallMs: 0)))
        }
    }

    static let step = ScenarioStep.advance(.seconds(1))

    static func result(_ profile: Profile, _ journal: Journal, failing: Bool = false) -> ScenarioResult {
        ScenarioResult(
            scenario: "s", profile: profile,
            steps: [ScenarioStepResult(
                number: 1, step: step, status: failing ? .failed : .passed, message: failing ? "refused" : nil)],
            entries: journal.entries)
    }

    static func run(_ results: ScenarioResult...) -> ScenarioFileRun {
        ScenarioFileRun(file: "s.yaml", scenario: Scenario(name: "s", steps: [step]), results: results)
    }

    @Test func aMarkMadeOnlyInACallbackThatNoLongerComesIsReportedWithIt() {
        var delegateEra = Journal()
        delegateEra.call(.didFinishLaunching, marks: ["launched"])
        delegateEra.call(.didEnterBackground, marks: ["state-saved", "state-saved-2"])
        delegateEra.call(.willEnterForeground)
        delegateEra.call(.didEnterBackground, marks: ["state-saved"])
        var sceneEra = Journal()
        sceneEra.call(.didFinishLaunching, marks: ["launched"])
        sceneEra.call(.sceneDidEnterBackground)
        let losses = MigrationDiff.losses(Self.run(Self.result(.ios7, delegateEra), Self.result(.ios27, sceneEra)))
        #expect(losses == [MigrationDiff.Loss(
            earlier: .ios7, later: .ios27, app: "A",
            kind: .callbackNeverCalled(
                .didEnterBackground,
                marks: [.init(name: "state-saved", count: 2), .init(name: "state-saved-2", count: 1)],
                implemented: false))])
        #expect(losses.first?.text == "A: didEnterBackground was called under ios7 and never under ios27: its marks "
            + "state-saved (2×), state-saved-2 are missing")
    }

    @Test func anImplementedCallbackNeverCalledIsReportedEvenWithoutMarks() {
        var delegateEra = Journal()
        delegateEra.entries.append(.process(ProcessRecord(
            seq: 1, app: "A", pid: 1, event: .connected, atMs: 0, wallMs: 0,
            implements: [.didEnterBackground, .willResignActive])))
        delegateEra.call(.willResignActive)
        delegateEra.call(.didEnterBackground)
        var sceneEra = Journal()
        sceneEra.call(.sceneWillResignActive)
        sceneEra.call(.sceneDidEnterBackground)
        let losses = MigrationDiff.losses(Self.run(Self.result(.ios7, delegateEra), Self.result(.ios27, sceneEra)))
        #expect(losses.map(\.text) == [
            "A: willResignActive is implemented but never called under ios27 (it was under ios7)",
            "A: didEnterBackground is implemented but never called under ios27 (it was under ios7)",
        ])
    }

    @Test func aMarkMadeFewerTimesOrOutsideAnyCallbackIsReportedOnItsOwn() {
        var earlier = Journal()
        earlier.call(.didFinishLaunching, marks: ["launched"])
        earlier.mark("tick")
        earlier.mark("tick")
        earlier.mark("other", app: "B")
        var later = Journal()
        later.call(.didFinishLaunching, marks: ["launched"])
        later.mark("tick")
        let losses = MigrationDiff.losses(Self.run(Self.result(.ios4, earlier), Self.result(.ios7, later)))
        #expect(losses.map(\.text) == [
            "A: mark tick made 2 times under ios4, once under ios7",
            "B: mark other made once under ios4, never under ios7",
        ])
    }

    @Test func aCalledCallbackWhoseMarksStillHappenElsewhereIsNoLoss() {
        var earlier = Journal()
        earlier.call(.didEnterBackground, marks: ["state-saved"])
        var later = Journal()
        later.call(.sceneDidEnterBackground, marks: ["state-saved"])
        #expect(MigrationDiff.losses(Self.run(Self.result(.ios7, earlier), Self.result(.ios27, later))).isEmpty)
    }

    @Test func gainsAreNotLossesAndEqualRunsAgree() {
        var small = Journal()
        small.call(.didFinishLaunching)
        var big = Journal()
        big.call(.didFinishLaunching, marks: ["new"])
        #expect(MigrationDiff.losses(Self.run(Self.result(.ios7, small), Self.result(.ios27, big))).isEmpty)
        #expect(MigrationDiff.losses(Self.run(Self.result(.ios7, big), Self.result(.ios27, big))).isEmpty)
        #expect(MigrationDiff.losses(Self.run(Self.result(.ios7, big))).isEmpty)
    }

    @Test func aRunThatBeginsToFailIsALossAndOneThatStopsFailingIsNot() {
        let journal = Journal()
        let losses = MigrationDiff.losses(
            Self.run(Self.result(.ios7, journal), Self.result(.ios27, journal, failing: true)))
        #expect(losses.map(\.text) == ["the run passed under ios7 and failed under ios27: step 1 advance 1s: refused"])
        #expect(MigrationDiff.losses(
            Self.run(Self.result(.ios7, journal, failing: true), Self.result(.ios27, journal))).isEmpty)
    }

    @Test func eachProfileIsComparedWithTheOneBeforeItInTheOrderRun() {
        var with = Journal()
        with.mark("m")
        let without = Journal()
        let run = Self.run(Self.result(.ios27, with), Self.result(.ios7, without), Self.result(.ios4, with))
        #expect(MigrationDiff.pairs(run).map { [$0.earlier.profile, $0.later.profile] }
            == [[.ios27, .ios7], [.ios7, .ios4]])
        #expect(MigrationDiff.losses(run).map(\.text) == ["A: mark m made once under ios27, never under ios7"])
    }

    @Test func underAFrozenManualClockMarksStillBelongToTheCallbackTheyWereMadeIn() {
        var delegateEra = Journal(tick: 0)
        delegateEra.call(.didFinishLaunching, marks: ["launched"])
        delegateEra.call(.didEnterBackground, marks: ["state-saved"])
        delegateEra.call(.willEnterForeground, marks: ["refreshed"])
        var sceneEra = Journal(tick: 0)
        sceneEra.call(.didFinishLaunching, marks: ["launched"])
        sceneEra.call(.sceneDidEnterBackground)
        sceneEra.call(.sceneWillEnterForeground, marks: ["refreshed"])
        let losses = MigrationDiff.losses(Self.run(Self.result(.ios7, delegateEra), Self.result(.ios27, sceneEra)))
        #expect(losses.map(\.text) == [
            "A: didEnterBackground was called under ios7 and never under ios27: its mark state-saved is missing",
        ])
    }

    @Test func workWhileSuspendedIsReportedAndWorkInACallbackAfterItIsNot() {
        var earlier = Journal()
        earlier.call(.didEnterBackground, marks: ["state-saved"], to: .background)
        var later = Journal()
        later.call(.sceneDidEnterBackground, to: .background)
        later.call(nil, to: .suspended)  // the suspension
        later.mark("state-saved")  // saved after the callback returned, without a background task
        later.clock += 10  // the user comes back later
        later.call(.sceneWillEnterForeground, marks: ["refreshed"])
        let losses = MigrationDiff.losses(Self.run(Self.result(.ios7, earlier), Self.result(.ios27, later)))
        #expect(losses.count == 1)
        #expect(losses.first?.kind == .workWhileSuspended(name: "state-saved", atMs: 5))
        #expect(losses.first?.text == "A: mark state-saved at 5.0 ms under ios27 while suspended: work after leaving "
            + "the foreground without a background task, which a device would not run")
    }

    @Test func theReportsSayEachLossAndCountThem() {
        var with = Journal()
        with.mark("m")
        let run = Self.run(Self.result(.ios7, with), Self.result(.ios27, Journal()))
        #expect(MigrationReport.lines([run]) == [
            "LOST  s (s.yaml), ios7 → ios27:",
            "  A: mark m made once under ios7, never under ios27",
            "migration diff: 1 loss in 1 scenario compared",
        ])
        #expect(MigrationReport.hasLosses([run]))
        let same = Self.run(Self.result(.ios7, with), Self.result(.ios27, with))
        #expect(MigrationReport.lines([same]).first == "no loss in s (s.yaml), ios7 → ios27")
        #expect(!MigrationReport.hasLosses([same]))
        let xml = JUnitReport.xml([run], diff: true)
        #expect(xml.contains(#"<testsuites name="lifebus run" tests="3" failures="1""#))
        #expect(xml.contains(#"<testcase name="s [ios7 → ios27] A mark m" classname="s.yaml --diff""#))
        #expect(xml.contains(#"type="lifebus.MigrationLoss">A: mark m made once under ios7, never under ios27<"#))
        #expect(!JUnitReport.xml([run]).contains("--diff"))
    }
}

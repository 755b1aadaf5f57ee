import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline
import Testing

/// The timeline model: lanes, spans, callbacks, endings, marks and events arranged from journal entries.
@Suite struct TimelineBuildingTests {
    @Test func skipsRecordKindsItDoesNotDraw() throws {
        let lines = try TimelineFixture.lines()
        #expect(lines.count == 13)
        #expect(try TimelineFixture.entries().count == 12)
        #expect(try JournalEntries.decode(["type": "note", "seq": 1]) == nil)
        #expect(throws: RPCError.self) { try JournalEntries.decode(["type": "transition", "seq": 1]) }
    }

    @Test func aJournalOfSeveralBrokerRunsKeepsItsLast() throws {
        let entries = try TimelineFixture.entries()
        #expect(JournalEntries.lastRun(entries) == entries)
        let twice = entries + entries.prefix(3)
        #expect(JournalEntries.lastRun(twice) == Array(entries.prefix(3)))
        #expect(JournalEntries.lastRun([]).isEmpty)
    }

    @Test func oneLanePerAppInOrderOfFirstAppearance() throws {
        let timeline = Timeline(entries: try TimelineFixture.entries())
        #expect(timeline.lanes.map(\.app) == [TimelineFixture.deepThoughts, TimelineFixture.returnMeTo])
        #expect(timeline.startMs == 9.75)
        #expect(timeline.endMs == 12000.375)
    }

    @Test func statesStartWhenTheirCallbackIsSentAndRunToTheNextChange() throws {
        let lane = Timeline(entries: try TimelineFixture.entries()).lanes[0]
        let spans = lane.spans.map { "\($0.state.rawValue) \($0.startMs)-\($0.endMs)" }
        #expect(spans == [
            "notRunning 9.75-10.0", "inactive 10.0-12.625", "active 12.625-400.25", "inactive 400.25-400.625",
            "background 400.625-5403.25", "suspended 5403.25-12000.375",
        ])
    }

    @Test func aWatchdogEndsTheAppWhenItsBudgetRanOut() throws {
        let lane = Timeline(entries: try TimelineFixture.entries()).lanes[1]
        let ending = try #require(lane.endings.first)
        #expect(ending.outcome == .watchdog)
        #expect(ending.atMs == 6001.125 + 5000)
        #expect(ending.reason == "watchdog: didEnterBackground not answered within 5000 ms")
        #expect(ending.isFailure)
        #expect(lane.spans.last?.state == .notRunning)
        #expect(lane.spans.last?.startMs == 11001.125)
        let unanswered = try #require(lane.callbacks.last)
        #expect(unanswered.latencyMs == nil)
        #expect(unanswered.overBudget)
        #expect(unanswered.drawnMs == 5000)
    }

    @Test(arguments: [
        (TransitionOutcome.watchdog, nil, true), (.crashed, nil, false), (.jetsam, nil, false),
        (.late, 6000.0, true), (.ok, 10.0, false),
    ] as [(TransitionOutcome, Double?, Bool)])
    func overBudgetMeansTheCallbackRanOutOfTime(outcome: TransitionOutcome, answered: Double?, over: Bool) {
        let record = TransitionRecord(
            seq: 1, app: "com.example.A", pid: nil, callback: .didEnterBackground, cause: nil, from: .inactive,
            to: answered == nil ? .notRunning : .background, firedMs: nil, sentMs: 0, answeredMs: answered,
            handlerMs: nil, budgetMs: 5000, outcome: outcome, wallMs: 0
        )
        let run = Timeline(entries: [.transition(record)]).lanes[0].callbacks[0]
        #expect(run.overBudget == over)
    }

    @Test func callbacksCarryLatencyAgainstBudget() throws {
        let lane = Timeline(entries: try TimelineFixture.entries()).lanes[0]
        let background = try #require(lane.callbacks.first { $0.callback == .didEnterBackground })
        #expect(background.latencyMs == 2.5)
        #expect(background.budgetMs == 5000)
        #expect(!background.overBudget)
        #expect(background.cause?.event == "launch com.example.ReturnMeTo")
        #expect(lane.callbacks.count == 4)
    }

    @Test func jetsamAndMarksLandOnTheirLane() throws {
        let lane = Timeline(entries: try TimelineFixture.entries()).lanes[0]
        #expect(lane.endings.map(\.reason) == ["jetsam: killed for memory"])
        #expect(lane.marks.map(\.name) == ["state-restored", "state-saved"])
    }

    @Test func eventsAreTheCausesAtTheTimeTheyWereFired() throws {
        let timeline = Timeline(entries: try TimelineFixture.entries())
        #expect(timeline.events.map(\.label) == [
            "launch com.example.DeepThoughts", "launch com.example.ReturnMeTo", "call --answer",
            "memory-warning --level critical",
        ])
        #expect(timeline.events.map(\.atMs) == [9.75, 400, 6000, 12000])
    }

    @Test func choosingAppsKeepsOnlyTheirLanesAndEvents() throws {
        let timeline = Timeline(entries: try TimelineFixture.entries(), apps: [TimelineFixture.returnMeTo])
        #expect(timeline.lanes.map(\.app) == [TimelineFixture.returnMeTo])
        #expect(timeline.events.map(\.eventID) == [2, 3])
    }

    @Test func aSuspensionTheJournalDoesNotRecordIsDrawnFromTheEndOfTheLastCallback() {
        func record(_ seq: Int64, _ callback: LifecycleCallback, _ from: LifecycleState, _ to: LifecycleState,
                    sent: Double, answered: Double) -> JournalEntry {
            .transition(TransitionRecord(
                seq: seq, app: "com.example.A", pid: nil, callback: callback, cause: nil, from: from, to: to,
                firedMs: nil, sentMs: sent, answeredMs: answered, handlerMs: nil, budgetMs: 5000, outcome: .ok,
                wallMs: 0
            ))
        }
        let timeline = Timeline(entries: [
            record(1, .didEnterBackground, .inactive, .background, sent: 5, answered: 10),
            record(2, .willEnterForeground, .suspended, .inactive, sent: 100, answered: 101),
        ])
        let spans = timeline.lanes[0].spans.map { "\($0.state.rawValue) \($0.startMs)-\($0.endMs)" }
        #expect(spans == ["background 5.0-10.0", "suspended 10.0-100.0", "inactive 100.0-101.0"])
    }

    @Test func anEmptyJournalGivesAnEmptyTimeline() {
        let timeline = Timeline(entries: [])
        #expect(timeline.lanes.isEmpty)
        #expect(timeline.durationMs == 0)
        #expect(TimelineText.render(timeline) == "no transitions recorded\n")
        #expect(SVGTimeline(timeline).render().contains("0 apps"))
    }
}

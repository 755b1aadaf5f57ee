@testable import LifebusCLI
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusExpectation
import Testing

@Suite struct ExpectationTests {
    static func transition(
        _ seq: Int64, _ callback: LifecycleCallback?, _ from: LifecycleState, _ to: LifecycleState,
        outcome: TransitionOutcome = .ok, failed: Bool = false, event: Int64? = 1, sent: Double = 10, app: String = "A"
    ) -> JournalEntry {
        .transition(TransitionRecord(
            seq: seq, app: app, pid: 1, callback: callback,
            cause: event.map { EventCause(eventID: $0, event: "home") }, from: from, to: to,
            firedMs: event == nil ? nil : Double(event!) * 10, sentMs: sent, answeredMs: nil, handlerMs: nil,
            budgetMs: 5000, outcome: outcome, wallMs: 0, handlerFailed: failed))
    }

    static func mark(
        _ seq: Int64, _ name: String, _ data: JSONObject?, at: Double = 10, app: String = "A"
    ) -> JournalEntry {
        .mark(MarkRecord(seq: seq, app: app, pid: 1, name: name, data: data, atMs: at, wallMs: 0))
    }

    static let home: [JournalEntry] = [
        transition(1, .didFinishLaunching, .notRunning, .inactive, event: nil, sent: 1),
        transition(2, .didBecomeActive, .inactive, .active, event: nil, sent: 2),
        transition(3, .willResignActive, .active, .inactive, sent: 11),
        mark(4, "state-saved", ["items": 3, "file": "notes.txt"], at: 12),
        transition(5, .didEnterBackground, .inactive, .background, sent: 12),
        transition(6, nil, .background, .suspended, sent: 13),
    ]

    @Test func theLastEventsCallbacksStateOutcomeAndMarkPass() {
        let (entries, scope) = ExpectScope.lastEvent.select(Self.home, app: "A")
        #expect(scope == "since event 1 (home)")
        var expectation = Expectation()
        expectation.callbacks = [.willResignActive, .didEnterBackground]
        expectation.states = [.background, .suspended]
        expectation.outcome = .outcome(.ok)
        expectation.forbiddenOutcomes = [.outcome(.watchdog), .failed]
        expectation.mark = "state-saved"
        expectation.markData = [("items", "3"), ("file", "notes.txt")]
        let results = expectation.check(entries, state: .suspended)
        #expect(results.count == 5)
        #expect(results.map(\.passed) == [true, true, true, true, true])
    }

    @Test func underAManualClockTheLastEventIsCutByJournalOrder() {
        // Every entry at one instant (the manual clock not advanced): the launch's transitions (event 1) and its
        // mark are before the home's (event 2), so only the home's are in scope; an idle mark after the launch too.
        let entries: [JournalEntry] = [
            Self.mark(1, "launched", nil, at: 0),
            Self.transition(2, .didFinishLaunching, .notRunning, .inactive, event: 1, sent: 0),
            Self.transition(3, .didBecomeActive, .inactive, .active, event: 1, sent: 0),
            Self.mark(4, "idle", nil, at: 0),
            Self.transition(5, .willResignActive, .active, .inactive, event: 2, sent: 0),
            Self.mark(6, "state-saved", nil, at: 0),
            Self.transition(7, .didEnterBackground, .inactive, .background, event: 2, sent: 0),
        ].map { entry in
            guard case .transition(var record) = entry else { return entry }
            record.firedMs = 0
            return .transition(record)
        }
        let (inScope, scope) = ExpectScope.lastEvent.select(entries, app: "A")
        #expect(scope == "since event 2 (home)")
        #expect(inScope.map(\.seq) == [4, 5, 6, 7])
    }

    @Test func aMissingCallbackAWrongStateAFailedHookAndWrongMarkDataFail() {
        var entries = Self.home
        entries[2] = Self.transition(3, .willResignActive, .active, .inactive, failed: true, sent: 11)
        var expectation = Expectation()
        expectation.callbacks = [.willResignActive]
        expectation.states = [.active]
        expectation.outcome = .outcome(.ok)
        expectation.forbiddenOutcomes = [.failed]
        expectation.mark = "state-saved"
        expectation.markData = [("items", "4")]
        let results = expectation.check(ExpectScope.lastEvent.select(entries, app: "A").entries, state: .suspended)
        #expect(results.map(\.passed) == [false, false, false, false, false])
        #expect(results[0].recorded == "willResignActive, didEnterBackground")
        #expect(results[2].recorded == "failed, ok, ok")
    }

    @Test func aWatchdogKillFailsOutcomeOkAndNoOutcomeWatchdog() {
        let killed: [JournalEntry] = [
            Self.transition(3, .willResignActive, .active, .inactive, sent: 11),
            Self.transition(4, .didEnterBackground, .inactive, .notRunning, outcome: .watchdog, sent: 12),
        ]
        var expectation = Expectation()
        expectation.outcome = .outcome(.ok)
        expectation.forbiddenOutcomes = [.outcome(.watchdog)]
        #expect(expectation.check(killed, state: .notRunning).map(\.passed) == [false, false])
    }

    /// `failed` is a verdict like the others: `--outcome failed` holds for transitions whose hook failed (it never
    /// held when a failed transition's verdicts were compared whole with the one word).
    @Test func outcomeFailedHoldsWhenEveryHookFailedAndOkDoesNot() {
        let failed: [JournalEntry] = [
            Self.transition(3, .willResignActive, .active, .inactive, failed: true, sent: 11),
            Self.transition(4, .didEnterBackground, .inactive, .background, outcome: .late, failed: true, sent: 12),
        ]
        var expectation = Expectation()
        expectation.outcome = .failed
        #expect(expectation.check(failed, state: .background).map(\.passed) == [true])
        expectation.outcome = .outcome(.ok)
        #expect(expectation.check(failed, state: .background).map(\.passed) == [false])
        expectation.outcome = .outcome(.late)
        expectation.forbiddenOutcomes = [.outcome(.late)]
        #expect(expectation.check(failed, state: .background).map(\.passed) == [false, false])
    }

    @Test func anEmptyScopeFailsOutcomeOk() {
        var expectation = Expectation()
        expectation.outcome = .outcome(.ok)
        #expect(expectation.check([], state: .active).map(\.passed) == [false])
    }

    @Test func scopesSelectByMarkBySeqAndOtherAppsAreLeftOut() {
        let entries = Self.home + [Self.transition(7, .willResignActive, .active, .inactive, app: "B")]
        #expect(ExpectScope.sinceMark("state-saved").select(entries, app: "A").entries.map(\.seq) == [5, 6])
        #expect(ExpectScope.sinceSeq(4).select(entries, app: "A").entries.map(\.seq) == [5, 6])
        #expect(ExpectScope.all.select(entries, app: "A").entries.count == 6)
        #expect(ExpectScope.sinceMark("never").select(entries, app: "A").entries.isEmpty)
        let connectedOnly = Array(Self.home.prefix(2))
        #expect(ExpectScope.lastEvent.select(connectedOnly, app: "A").entries.count == 2)
    }

    @Test func commandLinesParseAndBadOnesAreUsageErrors() throws {
        let command = try #require(try LifebusCommand.parseAsRoot([
            "expect", "com.x", "--callbacks", "willResignActive,didEnterBackground", "--state", "background|suspended",
            "--no-outcome", "watchdog,late", "--mark", "m", "--data-has", "k=v", "--since-seq", "3",
        ]) as? LifebusCommand.Expect)
        #expect(command.expectation.callbacks == [.willResignActive, .didEnterBackground])
        #expect(command.scope == .sinceSeq(3))
        for bad in [["expect", "com.x"], ["expect", "com.x", "--outcome", "fine"],
                    ["expect", "com.x", "--callbacks", "didSleep"], ["expect", "com.x", "--data-has", "k=v"],
                    ["expect", "com.x", "--state", "ok", "--all", "--since-seq", "1"]] {
            #expect(throws: (any Error).self) { try LifebusCommand.parseAsRoot(bad) }
        }
        #expect(throws: (any Error).self) { try LifebusCommand.parseAsRoot(["fire", "home", "--expect", "great"]) }
        let fire = try #require(try LifebusCommand.parseAsRoot(["fire", "home", "--fail-on", "watchdog,failed"])
            as? LifebusCommand.Fire.Home)
        let records = Self.home.compactMap { if case .transition(let r) = $0 { r } else { nil } }
        #expect(fire.options.badTransitions(records).isEmpty)
    }
}

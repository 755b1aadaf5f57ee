import LifebusFuzzing
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The fuzzer's background invariants over journal entries: every task completed or expired in time (a `BGTask`'s
/// `expired` record, a kill for `backgroundTaskExpired`), and no protected write failed (`protected=MARK`).
@Suite struct BackgroundInvariantTests {
    private var seq: Int64 = 0

    private mutating func task(_ event: BackgroundTaskRecord.Event, success: Bool? = nil) -> JournalEntry {
        seq += 1
        return .task(BackgroundTaskRecord(
            seq: seq, app: "A", pid: 1, identifier: "refresh", kind: .appRefresh, event: event, success: success,
            atMs: 0, wallMs: 0))
    }

    private mutating func killed(_ reason: KillReason) -> JournalEntry {
        seq += 1
        return .process(ProcessRecord(
            seq: seq, app: "A", pid: 1, event: .killed, reason: .kill(reason), atMs: 0, wallMs: 0))
    }

    private mutating func mark(_ name: String) -> JournalEntry {
        seq += 1
        return .mark(MarkRecord(seq: seq, app: "A", pid: 1, name: name, data: ["errno": "EPERM"], atMs: 0, wallMs: 0))
    }

    @Test mutating func aTaskCompletedOrExpiredInTimeHolds() {
        var checker = InvariantChecker(facts: AppFacts())
        #expect(checker.check([task(.submitted), task(.launched), task(.completed, success: true)]).isEmpty)
        #expect(checker.check([task(.launched), task(.expiring), task(.completed, success: false)]).isEmpty)
        #expect(checker.check([task(.launched), task(.cancelled), killed(.jetsam)]).isEmpty)
    }

    @Test mutating func aTaskNeitherCompletedNorExpiredBreaksItOnceWithItsKill() {
        var checker = InvariantChecker(facts: AppFacts())
        let violations = checker.check([task(.launched), task(.expiring), task(.expired),
                                        killed(.backgroundTaskExpired)])
        #expect(violations.map(\.kind) == [.taskNotEnded(identifier: "refresh")])
        #expect(violations.first?.detail.contains("refresh") == true)
    }

    @Test mutating func aBeginBackgroundTaskNotEndedBreaksItByItsKill() {
        var checker = InvariantChecker(facts: AppFacts())
        let violations = checker.check([killed(.watchdog), killed(.backgroundTaskExpired)])
        #expect(violations.map(\.kind) == [.taskNotEnded(identifier: nil)])
    }

    @Test mutating func aFailedProtectedWriteBreaksItOnlyWithItsFact() {
        var plain = InvariantChecker(facts: AppFacts())
        #expect(plain.check([mark("draft-lost")]).isEmpty)
        var checker = InvariantChecker(facts: AppFacts(protectedWriteFailure: "draft-lost"))
        let violations = checker.check([mark("draft-saved"), mark("draft-lost")])
        #expect(violations.map(\.kind) == [.protectedWriteFailed])
        #expect(violations.first?.detail.contains("EPERM") == true)
    }

    @Test func theBackgroundFactsAreReadFromTheirOptions() throws {
        let options = ["task=com.example.Feed.refresh:15m", "pushes", "protected=draft-lost"]
        let facts = try AppFacts(options.compactMap(AppFact.init))
        #expect(facts.task?.identifier == "com.example.Feed.refresh")
        #expect(facts.task?.after == .seconds(900))
        #expect(facts.pushes)
        #expect(facts.protectedWriteFailure == "draft-lost")
        #expect(facts.options == options)
        #expect(try AppFacts(facts.facts) == facts)
    }
}

import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The effect performer on a fake host, as swift-nio tests a handler on `EmbeddedEventLoop`: each effect becomes
/// its one host call, and the timer is only ever moved earlier, never firing before its deadline.
@Suite struct BrokerHostTests {
    /// A host that records its calls as text and keeps the timer's instant; the clock stands at `now`.
    final class RecordingHost: BrokerHost {
        var timerArmedFor: Instant?
        var now = Instant(nanoseconds: 5_000_000_000)
        var calls: [String] = []

        func currentInstant() -> Instant { now }
        func startTimer(afterMilliseconds milliseconds: UInt64) { calls.append("timer \(milliseconds)") }
        func answer(_ ticket: Ticket, _ result: Result<JSONValue, RPCError>) { calls.append("answer \(ticket)") }
        func answerFire(_ ticket: Ticket, _ result: WrittenFireResult) { calls.append("fire \(ticket)") }
        func answerPing(_ ticket: Ticket, _ result: PingResult) { calls.append("ping \(ticket)") }
        func forget(_ ticket: Ticket) { calls.append("forget \(ticket)") }
        func notify(_ session: SessionID, method: String, params: JSONValue) { calls.append("notify \(method)") }
        func sendCallback(to session: SessionID, _ params: CallbackParams, app: AppID, id: CallbackID) {
            calls.append("callback \(app)")
        }
        func liftLimits(of session: SessionID) { calls.append("lift \(session)") }
        func close(_ session: SessionID, _ closing: BrokerEffect.Closing) { calls.append("close \(closing)") }
        func holdProcess(of app: AppID, session: SessionID, pid: Int32) { calls.append("hold \(pid)") }
        func releaseProcess(of app: AppID) { calls.append("release \(app)") }
        func kill(_ app: AppID, via route: KillRoute, reason: KillReason) { calls.append("kill \(route)") }
        func spawn(_ app: InstalledApp) { calls.append("spawn \(app.id)") }
        func freeze(_ app: AppID) { calls.append("freeze \(app)") }
        func thaw(_ app: AppID) { calls.append("thaw \(app)") }
        func readManifest(for ticket: Ticket, from source: ManifestSource) { calls.append("read \(ticket)") }
        func requestJournalCommit() { calls.append("commit") }
    }

    static let app: AppID = "com.example.Notes"

    @Test func eachEffectIsItsOneHostCall() {
        let host = RecordingHost()
        let effects: [BrokerEffect] = [
            .reply(Ticket(1), .success(.null)), .replyPing(Ticket(2), PingResult(brokerTime: 0)), .forget(Ticket(3)),
            .notify(SessionID(4), method: "lifebus.error", params: .null), .introduced(SessionID(5)),
            .holdProcess(Self.app, session: SessionID(5), pid: 77), .releaseProcess(Self.app),
            .close(SessionID(6), .afterFlush), .kill(Self.app, via: .group, reason: .watchdog),
            .kill(Self.app, via: .pid(77), reason: .jetsam), .spawn(ProcessesTests.notes), .freeze(Self.app),
            .thaw(Self.app), .install(Ticket(7), .file("/a.json", environment: [:])), .commitJournal,
        ]
        effects.forEach(host.perform)
        #expect(host.calls == [
            "answer \(Ticket(1))", "ping \(Ticket(2))", "forget \(Ticket(3))", "notify lifebus.error", "lift 5",
            "hold 77", "release com.example.Notes", "close afterFlush", "kill group", "kill pid(77)",
            "spawn com.example.Notes", "freeze com.example.Notes", "thaw com.example.Notes", "read \(Ticket(7))",
            "commit",
        ])
    }

    @Test func theTimerIsOnlyEverMovedEarlier() {
        let host = RecordingHost()
        let now = host.now
        host.perform(.armTimer(now + .milliseconds(100)))
        host.perform(.armTimer(now + .milliseconds(200)))  // later: left where it is (its early run is harmless)
        host.perform(.armTimer(nil))  // the deadline went: left too
        host.perform(.armTimer(now + .milliseconds(100)))  // the same instant: nothing to move
        host.perform(.armTimer(now + .milliseconds(40)))
        #expect(host.calls == ["timer 100", "timer 40"])
        #expect(host.timerArmedFor == now + .milliseconds(40))
    }

    @Test func afterTheTimerRanAnyDeadlineArmsItAgain() {
        let host = RecordingHost()
        host.perform(.armTimer(host.now + .milliseconds(10)))
        host.timerArmedFor = nil  // it fired: the driver clears it before feeding `timerFired`
        host.now = host.now + .milliseconds(10)
        host.perform(.armTimer(host.now + .milliseconds(500)))
        #expect(host.calls == ["timer 10", "timer 500"])
    }

    /// Whole milliseconds rounded up, so the timer never fires before the deadline; a deadline already passed runs
    /// it at once.
    @Test(arguments: [(1, 1), (999_999, 1), (1_000_000, 1), (1_000_001, 2), (1_500_000, 2)])
    func theDelayIsRoundedUpToWholeMilliseconds(nanoseconds: Int, milliseconds: Int) {
        let host = RecordingHost()
        host.perform(.armTimer(host.now + .nanoseconds(nanoseconds)))
        #expect(host.calls == ["timer \(milliseconds)"])
    }

    @Test func aDeadlineAlreadyPassedRunsTheTimerAtOnce() {
        let host = RecordingHost()
        host.perform(.armTimer(Instant(nanoseconds: 1)))
        #expect(host.calls == ["timer 0"])
    }

    /// The machine's timer effects through the performer: the host's timer is armed for the deadline the machine
    /// announced (a new peer's hello deadline, 5 s on).
    @Test func theMachinesDeadlineArmsTheHostsTimer() throws {
        var harness = MachineHarness()
        let host = RecordingHost()
        host.now = harness.now
        let (_, admitted) = harness.connect()
        admitted.forEach(host.perform)
        let announced = try #require(harness.timer)
        #expect(host.timerArmedFor == announced)
        #expect(host.calls == ["timer 5000"])
    }
}

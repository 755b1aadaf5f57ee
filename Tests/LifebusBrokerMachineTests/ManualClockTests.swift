import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The manual clock (`lifebusd --clock manual`): the lifecycle on virtual time moved only by `advance`, deadlines
/// fired in order each at its own instant, the watchdog at exactly the budget, transport deadlines on real time.
@Suite struct ManualClockTests {
    static let settle = Duration.seconds(2)

    /// A manual-clock machine with `com.example.Notes` launched and active, and a controller.
    private static func manual() -> (harness: MachineHarness, app: SessionID, controller: SessionID) {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.clock = .manual
        settings.advanceSettleLimit = settle
        var harness = MachineHarness(settings: settings)
        let (app, hello) = harness.introduce("app", app: "com.example.Notes", pid: 900)
        _ = harness.answerAllCallbacks(in: hello)
        harness.feed(.commitJournal)
        let (controller, _) = harness.introduce("controller")
        return (harness, app, controller)
    }

    private static func clock(_ effects: [BrokerEffect], _ ticket: Ticket) throws -> ClockResult {
        try ClockResult(json: try #require(try effects.reply(to: ticket)?.get()))
    }

    @Test func underTheRealClockAdvanceIsRefusedAndClockSaysReal() throws {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let (advance, refused) = harness.request(controller, "advance", #"{"byMs":5000}"#)
        #expect(refused.errorName(of: advance) == "lifebus.ClockNotManual")
        let (clock, answered) = harness.request(controller, "clock")
        #expect(try Self.clock(answered, clock).clock == .real)
    }

    @Test func byMsIsRangeChecked() {
        var (harness, _, controller) = Self.manual()
        for params in [#"{"byMs":-1}"#, #"{"byMs":"5"}"#, #"{"byMs":1e300}"#, #"{}"#] {
            let (advance, effects) = harness.request(controller, "advance", params)
            #expect(effects.errorName(of: advance) == "jsonrpc.InvalidParams", "\(params)")
        }
    }

    /// 36,500 one-day advances reach the maximum (100 years); one millisecond more is refused -32602 naming `byMs`,
    /// and virtual time stays put (it used to go on until nanoseconds overflowed and `nowMs` went negative).
    @Test func virtualTimeStopsAtItsMaximumAndAnAdvancePastItIsRefusedNamingByMs() throws {
        var (harness, _, controller) = Self.manual()
        let maximumMs: Double = 100 * 365 * 86_400_000
        for day in 0..<36_500 {
            let (advance, advanced) = harness.request(controller, "advance", #"{"byMs":86400000}"#)
            guard advanced.succeeded(advance) else {
                Issue.record("day \(day): \(String(describing: advanced.reply(to: advance)))")
                return
            }
        }
        let (clock, answered) = harness.request(controller, "clock")
        #expect(try Self.clock(answered, clock).nowMs == maximumMs)
        let (over, refused) = harness.request(controller, "advance", #"{"byMs":1}"#)
        guard case .failure(let error)? = refused.reply(to: over) else {
            Issue.record("an advance past the maximum was not refused")
            return
        }
        #expect(error.code == -32602)
        #expect(error.message.contains("byMs") && error.message.contains("3153600000000"), "\(error.message)")
        let (zero, stayed) = harness.request(controller, "advance", #"{"byMs":0}"#)
        #expect(try Self.clock(stayed, zero).nowMs == maximumMs)
        #expect(harness.journal.entries.allSatisfy { entry in
            guard case .transition(let record) = entry else { return true }
            return record.sentMs >= 0
        })
    }

    @Test func virtualTimeStartsAtZeroAndMovesOnlyOnAdvance() throws {
        var (harness, _, controller) = Self.manual()
        _ = harness.advance(by: .seconds(30))
        let (clock, answered) = harness.request(controller, "clock")
        #expect(try Self.clock(answered, clock) == ClockResult(clock: .manual, nowMs: 0))
        let (advance, advanced) = harness.request(controller, "advance", #"{"byMs":1500}"#)
        #expect(try Self.clock(advanced, advance) == ClockResult(clock: .manual, nowMs: 1500, outstanding: []))
    }

    @Test func aHungAppIsKilledAtExactlyItsBudgetInVirtualTime() throws {
        var (harness, app, controller) = Self.manual()
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"home"}"#)
        #expect(fired.callbacks.map(\.method) == ["willResignActive"])
        let realTime = harness.advance(by: .seconds(60))
        #expect(!realTime.contains { if case .kill = $0 { true } else { false } }, "real time kills nobody")

        let (short, waiting) = harness.request(controller, "advance", #"{"byMs":9999}"#)
        #expect(waiting.reply(to: short) == nil, "waits for the outstanding callback")
        let settled = try Self.clock(harness.advance(by: Self.settle), short)
        #expect(settled.nowMs == 9999)
        #expect(settled.outstanding?.map(\.callback) == [.willResignActive], "still within its budget")

        let (due, _) = harness.request(controller, "advance", #"{"byMs":1}"#)
        let stepped = harness.advance(by: Self.settle)
        #expect(stepped.contains { if case .kill(_, via: .pid(900), reason: .watchdog) = $0 { true } else { false } })
        #expect(stepped.closing(of: app) == .now)
        #expect(try Self.clock(stepped, due) == ClockResult(clock: .manual, nowMs: 10_000, outstanding: []))
        let transitions = try #require(try stepped.reply(to: fire)?.get())["transitions"]?.arrayValue ?? []
        #expect(transitions.last?["outcome"]?.stringValue == "watchdog")
    }

    @Test func anAnswerWithinTheSettleLimitLetsTheAdvanceFinishAtOnce() throws {
        var (harness, _, controller) = Self.manual()
        let (_, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let (advance, waiting) = harness.request(controller, "advance", #"{"byMs":20000}"#)
        #expect(waiting.reply(to: advance) == nil)
        let answered = harness.answerCallbacks(in: fired)
        #expect(try Self.clock(answered, advance) == ClockResult(clock: .manual, nowMs: 20_000, outstanding: []))
        #expect(harness.machine.device.state(of: "com.example.Notes") == .inactive, "answered: nobody killed")
    }

    @Test func deadlinesFireInOrderEachAtItsOwnInstant() throws {
        var (harness, app, controller) = Self.manual()
        let (observer, _) = harness.introduce("observer")
        let (begin, began) = harness.request(app, "beginBackgroundTask", "{}")
        #expect(began.succeeded(begin))
        let (_, fired) = harness.request(controller, "fire", #"{"event":"home"}"#)
        _ = harness.answerAllCallbacks(in: fired)
        #expect(harness.machine.device.state(of: "com.example.Notes") == .background)
        let (advance, warned) = harness.request(controller, "advance", #"{"byMs":600000}"#)
        #expect(warned.reply(to: advance) == nil, "waits at the warning for the app's end of its task")
        // The app never ends it: one settle limit of real time later the advance goes on, the expiry on time.
        let advanced = warned + harness.advance(by: Self.settle)
        #expect(try Self.clock(advanced, advance).nowMs == 600_000)
        let expiring = try #require(advanced.firstIndex { effect in
            if case .notify(app, LifebusMethod.backgroundTaskExpiring, _) = effect { true } else { false }
        })
        let killed = try #require(advanced.firstIndex { effect in
            if case .kill(_, via: .pid(900), reason: .backgroundTaskExpired) = effect { true } else { false }
        })
        #expect(expiring < killed, "the expiry warning (175 s) comes before the kill of the unended task (180 s)")
        let record = advanced.compactMap { effect -> JSONValue? in
            guard case .notify(observer, LifebusMethod.transition, let record) = effect else { return nil }
            return record
        }.last
        #expect(record?["to"]?.stringValue == "notRunning")
        #expect(record?["sentMs"]?.doubleValue == 180_000, "recorded at the task's expiry, not at the target")
        let (status, answered) = harness.request(controller, "status", #"{"app":"com.example.Notes"}"#)
        let entry = try #require(try answered.reply(to: status)?.get())["apps"]?.arrayValue?.first
        #expect(entry?["sinceMs"]?.doubleValue == 180_000)
    }

    @Test func anEndSentAfterTheExpirationWarningIsNotOvertakenByTheExpiry() throws {
        var (harness, app, controller) = Self.manual()
        let (begin, began) = harness.request(app, "beginBackgroundTask", "{}")
        let task = try #require(try began.reply(to: begin)?.get())["taskID"]?.int64Value
        let (_, fired) = harness.request(controller, "fire", #"{"event":"home"}"#)
        _ = harness.answerAllCallbacks(in: fired)
        let (advance, warned) = harness.request(controller, "advance", #"{"byMs":600000}"#)
        #expect(warned.contains {
            if case .notify(app, LifebusMethod.backgroundTaskExpiring, _) = $0 { true } else { false }
        })
        #expect(warned.reply(to: advance) == nil, "virtual time waits at the warning (175 s)")
        // The expiration handler's end comes after the warning, from work it started (no callback to answer).
        let (end, ended) = harness.request(app, "endBackgroundTask", #"{"taskID":\#(task ?? 0)}"#)
        #expect(ended.succeeded(end))
        #expect(!ended.contains { if case .kill = $0 { true } else { false } }, "ended in its handler: not killed")
        #expect(try Self.clock(ended, advance).nowMs == 600_000, "no task left: the advance goes on at once")
        #expect(harness.machine.device.state(of: "com.example.Notes") == .suspended)
    }

    @Test func underJournalSyncTheAdvanceIsAnsweredAfterTheRecordsItMadeAreCommitted() throws {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.clock = .manual
        settings.journalSyncs = true
        settings.advanceSettleLimit = Self.settle
        var harness = MachineHarness(settings: settings)
        let (_, hello) = harness.introduce("app", app: "com.example.Notes", pid: 900)
        _ = harness.answerAllCallbacks(in: hello)
        harness.feed(.commitJournal)
        let (controller, _) = harness.introduce("controller")
        _ = harness.request(controller, "fire", #"{"event":"home","wait":false}"#)
        let (advance, advanced) = harness.request(controller, "advance", #"{"byMs":10000}"#)
        #expect(advanced.reply(to: advance) == nil)
        let stepped = harness.advance(by: Self.settle)
        #expect(stepped.contains { if case .kill = $0 { true } else { false } })
        #expect(stepped.reply(to: advance) == nil, "not before the watchdog record is committed")
        #expect(stepped.asksForCommit)
        #expect(try Self.clock(harness.feed(.commitJournal), advance).nowMs == 10_000)
    }

    @Test func helloTimeoutRunsOnRealTimeUnaffectedByAdvance() {
        var (harness, _, controller) = Self.manual()
        let (silent, _) = harness.connect()
        let (_, advanced) = harness.request(controller, "advance", #"{"byMs":3600000}"#)
        #expect(advanced.notifications(to: silent).isEmpty)
        #expect(harness.advance(by: .milliseconds(4999)).notifications(to: silent).isEmpty)
        #expect(harness.advance(by: .milliseconds(1)).notifications(to: silent) == ["lifebus.HelloTimeout"])
    }

    @Test func oneAdvanceAtATimeAndAControllerThatLeavesDropsIt() {
        var (harness, _, controller) = Self.manual()
        _ = harness.request(controller, "fire", #"{"event":"call"}"#)
        let (first, _) = harness.request(controller, "advance", #"{"byMs":1000}"#)
        let (second, refused) = harness.request(controller, "advance", #"{"byMs":1000}"#)
        #expect(refused.errorName(of: second) == "lifebus.LimitExceeded")
        let ended = harness.feed(.ended(controller))
        #expect(ended.contains { if case .forget(first) = $0 { true } else { false } })
        let (other, _) = harness.introduce("controller")
        let (third, effects) = harness.request(other, "advance", #"{"byMs":1000}"#)
        #expect(effects.errorName(of: third) == nil, "no advance is pending any more")
    }
}

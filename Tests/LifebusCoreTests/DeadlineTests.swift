import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// Deadlines on virtual time: the exact instants of kills, warnings and timers.
@Suite("deadlines on virtual time")
struct DeadlineTests {
    @Test("a willTerminate never answered is killed at exactly 5 s")
    func willTerminateWatchdogAtFiveSeconds() {
        var harness = Harness(profile: .ios7)
        harness.run(.connect("A"))
        harness.run(.hold("A"))
        let event = harness.fire(.terminate("A", byUser: false))
        harness.elapse(.nanoseconds(4_999_999_999))
        #expect(!harness.journal.contains(.kill("A", reason: .watchdog)))
        let start = harness.journal.count
        harness.elapse(.nanoseconds(1))
        #expect(harness.now == Instant(nanoseconds: 5_000_000_000))
        #expect(harness.journal[start] == .kill("A", reason: .watchdog))
        let killed = Transition(
            app: "A", callback: .willTerminate, cause: event, from: .active, to: .notRunning, fired: .zero,
            sent: .zero, answered: nil, handlerDuration: nil, budget: .seconds(5), outcome: .watchdog
        )
        let recorded = harness.journal.firstIndex(of: .record(killed))
        let answered = harness.journal.firstIndex(of: .completeEvent(event))
        #expect(recorded != nil && answered != nil && recorded ?? 0 < answered ?? 0, "recorded, then answered")
    }

    @Test("a background task never ended is warned 5 s before its budget and killed at it",
          arguments: [(Profile.ios4, Duration.seconds(600)), (Profile.ios7, Duration.seconds(180))])
    func backgroundTaskExpiry(profile: Profile, budget: Duration) {
        var harness = Harness(profile: profile)
        harness.run(.connect("A"))
        harness.run(.beginTask("A", 7))
        harness.run(.fire(.home))
        harness.elapse(budget - .seconds(5) - .nanoseconds(1))
        #expect(!harness.journal.contains(.backgroundTaskExpiring("A", taskID: 7)))
        harness.elapse(.nanoseconds(1))
        #expect(harness.journal.last == .backgroundTaskExpiring("A", taskID: 7))
        harness.elapse(.seconds(5) - .nanoseconds(1))
        #expect(harness.device.state(of: "A") == .background)
        harness.elapse(.nanoseconds(1))
        #expect(harness.now == Instant.zero + budget)
        #expect(harness.journal.contains(.kill("A", reason: .backgroundTaskExpired)))
        #expect(harness.device.state(of: "A") == .notRunning)
    }

    @Test("scaled budgets scale every duration exactly")
    func scaledBudgetsScaleExactly() {
        let scaled = Budgets.defaults(for: .ios7).scaled(by: 0.01)
        #expect(scaled[.didFinishLaunching] == .milliseconds(200))
        #expect(scaled[.willResignActive] == .milliseconds(100))
        #expect(scaled[.didEnterBackground] == .milliseconds(50))
        #expect(scaled[.willTerminate] == .milliseconds(50))
        #expect(scaled.backgroundTask == .milliseconds(1_800))
        #expect(scaled.expirationWarning == .milliseconds(50))
        #expect(Budgets.defaults(for: .ios3).scaled(by: 0.5).backgroundTask == nil)
        #expect(Budgets.defaults(for: .ios4).scaled(by: 3).backgroundTask == .seconds(1_800))
    }

    @Test("a scaled willTerminate budget is enforced at the scaled instant")
    func scaledWatchdogFiresAtScaledInstant() {
        let budgets = Budgets.defaults(for: .ios7).scaled(by: 0.01)
        var harness = Harness(DeviceConfiguration(profile: .ios7, budgets: budgets))
        harness.run(.connect("A"))
        harness.run(.hold("A"))
        let start = harness.journal.count
        harness.fire(.terminate("A", byUser: false))
        let send = harness.journal[start...].first { if case .sendCallback = $0 { true } else { false } }
        guard case .sendCallback(_, _, .willTerminate, _, let budget, _, _) = send else {
            Issue.record("willTerminate was not sent first: \(harness.journal[start...])")
            return
        }
        #expect(budget == .milliseconds(50))
        harness.elapse(.milliseconds(50))
        #expect(harness.journal.contains(.kill("A", reason: .watchdog)))
        #expect(harness.now == Instant(nanoseconds: 50_000_000))
    }

    @Test("the wait for a process to connect counts against the launch budget")
    func launchWaitCountsAgainstBudget() {
        var harness = Harness(profile: .ios7)
        harness.run(.noSpawn("B"))
        harness.fire(.launch("B"))
        harness.elapse(.seconds(5))
        let start = harness.journal.count
        harness.run(.connect("B"))
        let sent = harness.journal[start...].compactMap { action -> Duration? in
            if case .sendCallback(_, _, .didFinishLaunching, _, let budget, _, _) = action { budget } else { nil }
        }
        #expect(sent == [.seconds(15)])
    }

    @Test("watchdog timers are armed at sent + budget")
    func watchdogArmedAtBudget() {
        var device = Device()
        let actions = device.handle(.appConnected("A", AppFlags(), pid: 42), at: Instant(nanoseconds: 1_000))
        guard case .sendCallback(_, let id, .didFinishLaunching, .inactive, let budget, nil, _) = actions.first(where: {
            if case .sendCallback = $0 { true } else { false }
        }) else {
            Issue.record("no didFinishLaunching sent: \(actions)")
            return
        }
        #expect(budget == .seconds(20))
        #expect(device.earliestDeadline == Instant(nanoseconds: 1_000) + .seconds(20))
        #expect(device.timerOwners == ["A"])
        #expect(device.snapshot(of: "A")?.outstandingCallbackID == id)
    }
}

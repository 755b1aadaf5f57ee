import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// Plain value tests of the device's answers, journal fields and rejections.
@Suite("device inputs and answers")
struct DeviceTests {
    @Test("an event's answer follows its transitions' records, each state change reported with its instant")
    func completeEventFollowsItsRecords() {
        var device = Device()
        let connect = device.handle(.appConnected("A", AppFlags(), pid: 7), at: .zero)
        guard case .sendCallback(_, let launched, _, _, _, _, _) = connect.first(where: isSend) else {
            Issue.record("no callback on connect")
            return
        }
        let activate = device.handle(.callbackAnswered("A", launched, handlerDuration: nil), at: .zero)
        guard case .sendCallback(_, let active, _, _, _, _, _) = activate.first(where: isSend) else {
            Issue.record("no didBecomeActive")
            return
        }
        _ = device.handle(.callbackAnswered("A", active, handlerDuration: nil), at: .zero)
        let fired = Instant(nanoseconds: 100)
        let ring = device.handle(.fire(EventID(9), .call(.ring)), at: fired)
        guard case .sendCallback("A", let resign, .willResignActive, .inactive, .seconds(10), EventID(9), _)
            = ring.first(where: isSend)
        else {
            Issue.record("no willResignActive: \(ring)")
            return
        }
        #expect(ring.contains(.stateChanged("A", from: .active, to: .inactive, at: fired)))
        let answered = Instant(nanoseconds: 400)
        let done = device.handle(.callbackAnswered("A", resign, handlerDuration: .nanoseconds(250)), at: answered)
        let transition = Transition(
            app: "A", callback: .willResignActive, cause: EventID(9), from: .active, to: .inactive, fired: fired,
            sent: fired, answered: answered, handlerDuration: .nanoseconds(250), budget: .seconds(10), outcome: .ok,
            pid: 7
        )
        #expect(done.suffix(2) == [.record(transition), .completeEvent(EventID(9))])
        #expect(device.state(of: "A") == .inactive)
        #expect(device.call == .ringing)
    }

    @Test("an event id still pending is rejected")
    func duplicateEventRejected() {
        var device = Device()
        var harness = Harness(profile: .ios7)
        harness.run(.connect("A"))
        harness.run(.hold("A"))
        harness.input(.fire(EventID(5), .home))
        harness.input(.fire(EventID(5), .sleep))
        #expect(harness.journal.last == .reject(Rejection(event: EventID(5), reason: .duplicateEvent)))
        #expect(device.handle(.deadlineReached, at: .zero) == [.reject(Rejection(reason: .unknownTimer))])
    }

    @Test("without an enforced watchdog a late answer is recorded late, not killed")
    func lateOutcomeWithoutWatchdog() {
        var harness = Harness(DeviceConfiguration(profile: .ios7, enforcesWatchdog: false))
        harness.run(.connect("A"))
        harness.run(.hold("A"))
        harness.run(.fire(.home))
        harness.elapse(.seconds(30))
        #expect(!harness.journal.contains { if case .kill = $0 { true } else { false } })
        harness.run(.release("A"))
        #expect(harness.describe(from: 0).suffix(3) == [
            "A willResignActive active→inactive late", "A didEnterBackground inactive→background ok",
            "A - background→suspended ok",
        ])
        #expect(harness.device.state(of: "A") == .suspended)
    }

    @Test("disconnect after exit (or exit after disconnect) is not a second end")
    func exitAndDisconnectAreOneEnd() {
        var harness = Harness(profile: .ios7)
        harness.run(.connect("A"))
        harness.run(.crash("A"))
        let start = harness.journal.count
        harness.input(.processExited("A", .exited(1)))
        #expect(harness.journal.count == start)
        harness.input(.processExited("Z", .exited(1)))
        #expect(harness.journal.last == .reject(Rejection(app: "Z", reason: .unknownApp)))
    }

    @Test("instants never run backwards")
    func instantsSaturate() {
        #expect(Instant(nanoseconds: 5) + (.zero - .seconds(1)) == .zero)
        #expect(Instant(nanoseconds: .max) + .seconds(1) == Instant(nanoseconds: .max))
        #expect(Instant(nanoseconds: 3) - Instant(nanoseconds: 5) == .nanoseconds(-2))
    }

    private func isSend(_ action: Action) -> Bool {
        if case .sendCallback = action { true } else { false }
    }
}

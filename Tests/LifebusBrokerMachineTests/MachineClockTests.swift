@testable import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The clock sub-machine on its own: the announced deadline follows the real-time schedule's earliest and stops
/// with the clock, the core's timers go to the schedule of their clock, an advance steps virtual time forward from
/// deadline to deadline up to its target; random runs match a plain model; a corrupted clock says what is broken.
@Suite struct MachineClockTests {
    static let epoch = Instant(nanoseconds: 1_000_000_000)
    static let settle = Duration.milliseconds(50)

    static func at(_ milliseconds: UInt64) -> Instant {
        epoch + .milliseconds(Int64(milliseconds))
    }

    @Test func theAnnouncedDeadlineIsTheEarliestAndIsAnnouncedOnlyWhenItMoves() {
        var clock = MachineClock(.real, epoch: Self.epoch, samplePeriod: nil)
        #expect(clock.announce() == nil, "nothing armed, nothing announced yet")
        clock.arm(.hello(SessionID(1)), at: Self.at(30))
        clock.arm(.hello(SessionID(2)), at: Self.at(10))
        #expect(clock.announce() == .some(Self.at(10)))
        #expect(clock.announce() == nil, "unchanged")
        clock.cancel(.hello(SessionID(2)))
        #expect(clock.announce() == .some(Self.at(30)))
        #expect(clock.invariantViolations.isEmpty)
        clock.cancel(.hello(SessionID(1)))
        #expect(clock.announce() == .some(nil), "disarmed")
        #expect(clock.invariantViolations.isEmpty)
    }

    @Test func dueDeadlinesComeOutInOrderAndAFiredTimerIsAnnouncedAgain() {
        var clock = MachineClock(.real, epoch: Self.epoch, samplePeriod: nil)
        clock.arm(.wait(number: 1, app: "com.example.Notes"), at: Self.at(20))
        clock.deviceDeadlineMoved(to: Self.at(10))
        clock.arm(.hello(SessionID(3)), at: Self.at(40))
        _ = clock.announce()
        let dueEarly = clock.hasDue(at: Self.at(9))
        let dueAt20 = clock.hasDue(at: Self.at(20))
        #expect(!dueEarly && dueAt20)
        clock.timerFired()
        #expect(clock.takeDue(at: Self.at(20)) == [.device, .wait(number: 1, app: "com.example.Notes")])
        clock.deviceDeadlineMoved(to: nil)  // the machine fed the core's due timer: none is left
        #expect(clock.announce() == .some(Self.at(40)))
        #expect(clock.invariantViolations.isEmpty)
    }

    @Test func theCoresTimersFollowTheLifecyclesClock() {
        var real = MachineClock(.real, epoch: Self.epoch, samplePeriod: nil)
        real.deviceDeadlineMoved(to: Self.at(10))
        #expect(real.deadlines.count == 1 && real.deviceDeadline == Self.at(10))
        #expect(real.lifecycleNow(Self.at(5)) == Self.at(5))
        real.deviceDeadlineMoved(to: Self.at(30))
        _ = real.announce()
        #expect(real.deadlines.count == 1 && real.announcedDeadline == Self.at(30), "one entry for the device, moved")
        real.deviceDeadlineMoved(to: nil)
        #expect(real.deadlines.count == 0 && real.deviceDeadline == nil)

        var manual = MachineClock(.manual, epoch: Self.epoch, samplePeriod: nil)
        manual.deviceDeadlineMoved(to: Self.at(10))
        #expect(manual.deadlines.count == 0 && manual.deviceDeadline == Self.at(10))
        #expect(manual.lifecycleNow(Self.at(5)) == Self.epoch, "virtual time moves only on advance")
        manual.deviceDeadlineMoved(to: nil)
        #expect(manual.deviceDeadline == nil)
    }

    @Test func anAdvanceWaitsForAnswersStepsToEachDeadlineAndFinishesAtItsTarget() {
        var clock = MachineClock(.manual, epoch: Self.epoch, samplePeriod: nil)
        clock.deviceDeadlineMoved(to: Self.at(100))
        let now = Self.at(5)
        clock.beginAdvance(
            session: SessionID(1), ticket: Ticket(9), to: Self.at(500), now: now, settleLimit: Self.settle)
        #expect(clock.stepAdvance(unsettled: true, now: now, settleLimit: Self.settle) == .wait)
        #expect(clock.takeDue(at: now + Self.settle) == [.advanceSettle])
        clock.settleLimitPassed()
        #expect(clock.stepAdvance(unsettled: true, now: now, settleLimit: Self.settle) == .fire)
        #expect(clock.virtualNow == Self.at(100))
        clock.deviceDeadlineMoved(to: Self.at(900))  // the core's timers due at 100 ms fired
        clock.deadlinesFired()
        #expect(clock.stepAdvance(unsettled: true, now: now, settleLimit: Self.settle) == .wait,
                "the settle limit counts again from the step")
        #expect(clock.stepAdvance(unsettled: false, now: now, settleLimit: Self.settle) == .finished(Ticket(9)))
        #expect(clock.virtualNow == Self.at(500), "the timer at 900 ms is past the target")
        #expect(clock.pendingAdvance == nil)
        #expect(clock.stepAdvance(unsettled: false, now: now, settleLimit: Self.settle) == nil)
        _ = clock.announce()
        #expect(clock.deadlines.count == 0, "the settle limit is disarmed with the advance")
        #expect(clock.invariantViolations.isEmpty)
    }

    @Test func aControllerThatLeavesDropsOnlyItsOwnAdvance() {
        var clock = MachineClock(.manual, epoch: Self.epoch, samplePeriod: nil)
        clock.beginAdvance(session: SessionID(1), ticket: Ticket(4), to: Self.at(10), now: Self.epoch,
                           settleLimit: Self.settle)
        #expect(clock.cancelAdvance(of: SessionID(2)) == nil)
        #expect(clock.cancelAdvance(of: SessionID(1)) == Ticket(4))
        #expect(clock.pendingAdvance == nil && clock.deadlines.count == 0)
        #expect(clock.virtualNow == Self.epoch)
    }

    @Test func aStoppedClockDropsItsDeadlinesHandsBackTheAdvanceAndAnnouncesNothing() {
        var clock = MachineClock(.manual, epoch: Self.epoch, samplePeriod: nil)
        clock.arm(.hello(SessionID(1)), at: Self.at(10))
        clock.beginAdvance(session: SessionID(1), ticket: Ticket(4), to: Self.at(10), now: Self.epoch,
                           settleLimit: Self.settle)
        _ = clock.announce()
        let advance = clock.stop()
        #expect(advance?.ticket == Ticket(4))
        #expect(clock.announcedDeadline == nil && clock.deadlines.count == 0)
        clock.arm(.hello(SessionID(2)), at: Self.at(20))
        #expect(clock.announce() == nil, "stopped")
        #expect(clock.invariantViolations.isEmpty)
    }

    @Test func anAdvanceSamplesMemoryOnVirtualTimeAndWaitsForTheRound() {
        var clock = MachineClock(.manual, epoch: Self.epoch, samplePeriod: .milliseconds(250))
        clock.beginAdvance(session: SessionID(1), ticket: Ticket(4), to: Self.at(1_000), now: Self.epoch,
                           settleLimit: Self.settle)
        #expect(clock.stepAdvance(unsettled: false, now: Self.epoch, settleLimit: Self.settle) == .sampled)
        #expect(clock.virtualNow == Self.at(250))
        let asked = clock.takeSampleRequest()
        let askedAgain = clock.takeSampleRequest()
        #expect(asked && !askedAgain, "asked once")
        #expect(clock.stepAdvance(unsettled: false, now: Self.epoch, settleLimit: Self.settle) == .wait)
        clock.memoryRoundCame(changedSomething: false)
        let last = clock.stepAdvance(unsettled: false, now: Self.epoch, settleLimit: Self.settle)
        #expect(last == .finished(Ticket(4)), "nothing happened since the round: the later sample instants are skipped")
        #expect(clock.virtualNow == Self.at(1_000))
    }

    /// What the clock should do, kept the plainest way: armed deadlines in a dictionary with the order they were
    /// armed in, the core's timers (whose earliest the clock is told) in another, virtual time as a number.
    struct Model {
        var real: [BrokerMachine.Deadline: (at: Instant, order: Int)] = [:]
        var virtual: [TimerID: (at: Instant, order: Int)] = [:]
        var order = 0
        var virtualNow = MachineClockTests.epoch
        var advance: (target: Instant, ticket: Ticket, settled: Bool)?
        var announced: Instant?

        mutating func arm(_ deadline: BrokerMachine.Deadline, at instant: Instant) {
            order += 1
            real[deadline] = (instant, order)
        }

        mutating func armVirtual(_ id: TimerID, at instant: Instant) {
            order += 1
            virtual[id] = (instant, order)
        }

        /// The core's earliest deadline, as the machine tells the clock.
        var earliestVirtual: Instant? { virtual.values.map(\.at).min() }

        mutating func takeDue(at now: Instant) -> [BrokerMachine.Deadline] {
            let due = real.filter { $0.value.at <= now }
                .sorted { ($0.value.at, $0.value.order) < ($1.value.at, $1.value.order) }
            for (deadline, _) in due { real[deadline] = nil }
            return due.map(\.key)
        }

        mutating func step(outstanding: Bool, now: Instant) -> MachineClock.AdvanceStep? {
            guard let pending = advance else { return nil }
            if outstanding && !pending.settled { return .wait }
            guard let next = virtual.values.map(\.at).min(), next <= pending.target else {
                virtualNow = max(virtualNow, pending.target)
                advance = nil
                real[.advanceSettle] = nil
                return .finished(pending.ticket)
            }
            virtualNow = max(virtualNow, next)
            advance?.settled = false
            arm(.advanceSettle, at: now + MachineClockTests.settle)
            for (id, _) in virtual.filter({ $0.value.at <= next }) { virtual[id] = nil }
            return .fire
        }
    }

    @Test(arguments: [1, 7, 42, 2026] as [UInt64])
    func randomRunsMatchTheModelAndKeepTheInvariants(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var clock = MachineClock(.manual, epoch: Self.epoch, samplePeriod: nil)
        var model = Model()
        var now = Self.epoch
        var nextTicket: UInt64 = 1
        for step in 0..<600 {
            let context = "seed \(seed), step \(step)"
            let offset = Duration.milliseconds(Int64.random(in: 0...400, using: &rng))
            switch Int.random(in: 0..<9, using: &rng) {
            case 0:
                let session = SessionID(UInt64.random(in: 1...6, using: &rng))
                clock.arm(.hello(session), at: now + offset)
                model.arm(.hello(session), at: now + offset)
            case 1:
                let session = SessionID(UInt64.random(in: 1...6, using: &rng))
                clock.cancel(.hello(session))
                model.real[.hello(session)] = nil
            case 2:
                let id = TimerID(UInt64.random(in: 1...12, using: &rng))
                model.armVirtual(id, at: model.virtualNow + offset)
                clock.deviceDeadlineMoved(to: model.earliestVirtual)
            case 3:
                let id = TimerID(UInt64.random(in: 1...12, using: &rng))
                model.virtual[id] = nil
                clock.deviceDeadlineMoved(to: model.earliestVirtual)
            case 4:
                now = now + offset
                let due = clock.takeDue(at: now)
                #expect(due == model.takeDue(at: now), "\(context)")
                if due.contains(.advanceSettle) {
                    clock.settleLimitPassed()
                    model.advance?.settled = true
                }
            case 5 where clock.pendingAdvance == nil, 6 where clock.pendingAdvance == nil:
                let ticket = Ticket(nextTicket)
                nextTicket += 1
                clock.beginAdvance(session: SessionID(1), ticket: ticket, to: clock.virtualNow + offset, now: now,
                                   settleLimit: Self.settle)
                model.advance = (model.virtualNow + offset, ticket, false)
                model.arm(.advanceSettle, at: now + Self.settle)
            default:
                let outstanding = Bool.random(using: &rng)
                let stepped = clock.stepAdvance(unsettled: outstanding, now: now, settleLimit: Self.settle)
                #expect(stepped == model.step(outstanding: outstanding, now: now), "\(context)")
                if case .fire = stepped {
                    clock.deviceDeadlineMoved(to: model.earliestVirtual)
                    clock.deadlinesFired()
                }
            }
            if let announced = clock.announce() { model.announced = announced }
            #expect(model.announced == model.real.values.map(\.at).min(), "\(context)")
            #expect(clock.announcedDeadline == model.announced, "\(context)")
            #expect(clock.virtualNow == model.virtualNow, "\(context)")
            #expect(clock.pendingAdvance?.ticket == model.advance?.ticket, "\(context)")
            let broken = clock.invariantViolations
            #expect(broken.isEmpty, "\(context): \(broken)")
            if !broken.isEmpty { return }
        }
    }

    @Test func aCorruptedClockSaysWhatIsBroken() {
        var clock = MachineClock(.real, epoch: Self.epoch, samplePeriod: nil)
        clock.arm(.hello(SessionID(1)), at: Self.at(10))
        _ = clock.announce()
        #expect(clock.invariantViolations.isEmpty)

        var stale = clock
        stale.announcedDeadline = Self.at(20)
        #expect(stale.invariantViolations == [
            "the announced deadline \(Self.at(20)) is not the earliest, \(Self.at(10))",
        ])

        var early = clock
        early.virtualNow = Instant(nanoseconds: 1)
        #expect(early.invariantViolations == [
            "virtual time is before the broker's start", "virtual time moved on the real clock",
        ])

        var lost = clock
        lost.deviceDeadlineMoved(to: Self.at(5))
        _ = lost.takeDue(at: Self.at(5))  // taken, and the core not told: its deadline is no longer scheduled
        _ = lost.announce()
        #expect(lost.invariantViolations == [
            "the device's entry is not armed, its deadline is \(Self.at(5)) under the real clock",
        ])

        var advancing = clock
        advancing.pendingAdvance = .init(session: SessionID(1), ticket: Ticket(1), target: Self.at(5))
        #expect(advancing.invariantViolations == ["an advance is pending on the real clock"])

        var manual = MachineClock(.manual, epoch: Self.epoch, samplePeriod: nil)
        manual.pendingAdvance = .init(session: SessionID(1), ticket: Ticket(1), target: Self.at(5))
        manual.virtualNow = Self.at(6)
        #expect(manual.invariantViolations == ["virtual time went past the pending advance's target"])

        var stopped = clock
        _ = stopped.stop()
        stopped.announcedDeadline = Self.at(10)
        #expect(stopped.invariantViolations == ["a timer is announced after the clock stopped"])
    }
}

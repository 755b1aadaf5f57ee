import LifebusCore
import LifebusLifecycle
import LifebusProtocol

extension BrokerMachine {
    /// A deadline in the clock's real-time schedule (`MachineClock.deadlines`).
    enum Deadline: Hashable {
        /// The core's earliest deadline (`Device.earliestDeadline`), under the real clock: one entry for the device.
        case device
        case hello(SessionID)
        case wait(number: UInt64, app: AppID)
        /// The real-time limit of the pending `advance`'s wait for outstanding callbacks.
        case advanceSettle

        /// The counter cases hash like `CounterIdentifier`s; a `wait`'s, which names an app, keeps the standard hash.
        func _rawHashValue(seed: Int) -> Int {
            switch self {
            case .device: return counterHash(3, seed: seed)
            case .hello(let session): return counterHash(session.rawValue << 2 | 1, seed: seed)
            case .advanceSettle: return counterHash(2, seed: seed)
            case .wait:
                var hasher = Hasher()
                hasher.combine(seed)
                hash(into: &hasher)
                return hasher.finalize()
            }
        }
    }
}

/// The broker machine's clock: every deadline on real time in one schedule (transport hello timeouts, `wait`
/// timeouts, the advance's settle limit, and under the real clock the core's earliest deadline as one `.device`
/// entry), the core's earliest deadline as last told (`deviceDeadline`: the core keeps its timers itself), under
/// the manual clock the virtual instant, the `advance` being carried out
/// (the extension below) and the memory samples on virtual time (`VirtualSampling`), and the deadline last announced
/// to the driver.
///
/// A plain value inside the machine, which changes it only through its methods (mutated in place: never copied per
/// input). It reads no clock: every method that needs the real instant is given it.
/// Invariants (`invariantViolations`, checked at rest, after each input's `announce`): the announced deadline is
/// the real-time schedule's earliest, or nothing once announcing stopped (`stop`); virtual time never goes back
/// and is never before the broker's start; an advance is pending only under the manual clock, one at a time, and
/// virtual time does not pass its target; under the real clock virtual time stays at the start; until the clock
/// stops, `deviceDeadline` is the core's earliest deadline (the machine checks it against the device) and under the
/// real clock the `.device` entry is armed exactly at it. `virtualNow`, `pendingAdvance` and `announcedDeadline` stay
/// settable in the module so tests can corrupt a clock, as `SessionTable`'s indexes are.
struct MachineClock {
    typealias Deadline = BrokerMachine.Deadline

    /// Whether the lifecycle runs on virtual time (`--clock manual`).
    let isManual: Bool
    /// The broker's start: virtual time starts there.
    let epoch: Instant
    /// The deadlines on real time.
    private(set) var deadlines = TimerSchedule<Deadline>()
    /// The core's earliest deadline as last told (`deviceDeadlineMoved`): on real time under the real clock (then
    /// also the `.device` entry's), on virtual time under the manual clock (reached only by `advance`).
    private(set) var deviceDeadline: Instant?
    /// Under the manual clock, the lifecycle's instant (starts at `epoch`, moves only on `advance`).
    var virtualNow: Instant
    /// The `advance` being carried out (one at a time).
    var pendingAdvance: PendingAdvance?
    /// Under the manual clock with memory sampling, the sample instants on virtual time.
    private(set) var sampling: VirtualSampling?
    /// The earliest deadline last announced to the driver (`BrokerEffect.armTimer`); the driver's timer may be armed
    /// earlier than it (`BrokerHost.armTimer(at:)` only moves it earlier), never later.
    var announcedDeadline: Instant?
    /// Announcing stopped (the broker is shutting down): the driver's timer stays disarmed.
    private(set) var isStopped = false

    /// A clock starting at `epoch`; under the manual clock with a `samplePeriod`, memory is sampled on virtual time.
    init(_ kind: ClockKind, epoch: Instant, samplePeriod: Duration?) {
        isManual = kind == .manual
        self.epoch = epoch
        virtualNow = epoch
        if isManual, let samplePeriod, samplePeriod > .zero {
            sampling = VirtualSampling(period: samplePeriod, epoch: epoch)
        }
    }

    /// The instant the lifecycle runs at when the input's real instant is `now`: virtual under the manual clock.
    func lifecycleNow(_ now: Instant) -> Instant { isManual ? virtualNow : now }

    /// Arms a real-time deadline (re-arming moves it).
    mutating func arm(_ deadline: Deadline, at instant: Instant) {
        deadlines.arm(deadline, at: instant)
    }

    mutating func cancel(_ deadline: Deadline) {
        deadlines.cancel(deadline)
    }

    /// The core's earliest deadline is now `instant` (`nil`: no timer armed); under the real clock the `.device`
    /// entry moves with it. Once the clock stopped, the core's deadlines are no longer scheduled.
    mutating func deviceDeadlineMoved(to instant: Instant?) {
        guard instant != deviceDeadline, !isStopped else { return }
        deviceDeadline = instant
        guard !isManual else { return }
        if let instant {
            deadlines.arm(.device, at: instant)
        } else {
            deadlines.cancel(.device)
        }
    }

    /// Whether a real-time deadline is due at `now`.
    mutating func hasDue(at now: Instant) -> Bool {
        guard let earliest = deadlines.earliestDeadline() else { return false }
        return earliest <= now
    }

    /// Takes the earliest real-time deadline due at `now` (`nil`: none is due).
    mutating func takeFirstDue(at now: Instant) -> Deadline? {
        deadlines.takeFirstDue(at: now)
    }

    /// The driver's timer fired: what it was armed for is no longer announced.
    mutating func timerFired() {
        announcedDeadline = nil
    }

    /// The deadline to announce to the driver when the earliest moved since the last announcement; `nil` when it
    /// did not (or announcing stopped). `.some(nil)`: disarm.
    mutating func announce() -> Instant?? {
        guard !isStopped else { return nil }
        let earliest = deadlines.earliestDeadline()
        guard earliest != announcedDeadline else { return nil }
        announcedDeadline = earliest
        return .some(earliest)
    }

    /// Stops announcing (the broker is shutting down): every real-time deadline is dropped, nothing stays announced,
    /// and the pending advance, if any, is handed back to be answered.
    mutating func stop() -> PendingAdvance? {
        isStopped = true
        deadlines.removeAll()
        deviceDeadline = nil
        announcedDeadline = nil
        return pendingAdvance.take()
    }

    /// A round of memory samples came: under the manual clock, the advance that asked for it goes on
    /// (`changedSomething`: a kill or a new pressure level makes the next sample instant worth a reading).
    mutating func memoryRoundCame(changedSomething: Bool) {
        guard sampling?.awaiting == true else { return }
        sampling?.roundCame(changedSomething: changedSomething)
    }

    /// Whether a sample is awaited that the driver was not asked for yet; `true` once per sample.
    mutating func takeSampleRequest() -> Bool {
        sampling?.takeRequest() ?? false
    }

    /// The broken invariants, in words; empty when the clock is sound (at rest: after an input's `announce`).
    var invariantViolations: [String] {
        var broken: [String] = []
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) {
            if !holds { broken.append(what()) }
        }
        var schedule = deadlines  // `earliestDeadline` drops stale fronts: asked of a copy
        let earliest = schedule.earliestDeadline()
        if isStopped {
            expect(announcedDeadline == nil, "a timer is announced after the clock stopped")
        } else {
            func text(_ instant: Instant?) -> String { instant.map { "\($0)" } ?? "none" }
            expect(announcedDeadline == earliest,
                   "the announced deadline \(text(announcedDeadline)) is not the earliest, \(text(earliest))")
        }
        expect(virtualNow >= epoch, "virtual time is before the broker's start")
        expect(pendingAdvance == nil || isManual, "an advance is pending on the real clock")
        if let pendingAdvance {
            expect(pendingAdvance.target >= virtualNow, "virtual time went past the pending advance's target")
        }
        expect(isManual || virtualNow == epoch, "virtual time moved on the real clock")
        if !isStopped {
            let entry = deadlines.deadline(of: .device)
            expect(entry == (isManual ? nil : deviceDeadline),
                   "the device's entry is \(entry.map { "\($0)" } ?? "not armed"), its deadline is "
                       + "\(deviceDeadline.map { "\($0)" } ?? "none") under the \(isManual ? "manual" : "real") clock")
        }
        return broken
    }
}

/// The clock's side of an `advance` (how the machine carries one out: `BrokerMachine+Clock`): the pending advance,
/// its real-time settle limit, and the steps of virtual time to the next core deadline or sample instant.
///
/// Invariants: one advance at a time, from `beginAdvance` until its last step (`.finished`), its controller leaving
/// (`cancelAdvance`) or the clock stopping; `.advanceSettle` is armed exactly while one is pending; virtual time
/// only moves forward, never past the advance's target.
extension MachineClock {
    /// An `advance` being carried out.
    struct PendingAdvance {
        let session: SessionID
        let ticket: Ticket
        /// The virtual instant it moves to.
        let target: Instant
        /// The real-time settle limit since the last step has passed: step on even with callbacks outstanding.
        var settleLimitPassed = false
    }

    /// What one step of the pending advance did.
    enum AdvanceStep: Equatable {
        /// Callbacks are outstanding within the settle limit, or a sample's round is awaited: nothing moved.
        case wait
        /// Virtual time stepped onto a sample instant, and the sample is asked for.
        case sampled
        /// Virtual time stepped onto the core's earliest deadline: its due timers are fed (`deadlinesFired` follows).
        case fire
        /// Nothing is left before the target: virtual time is at it and the advance is over; its ticket is answered.
        case finished(Ticket)
    }

    /// Starts an advance by `session` to the virtual instant `target` (at or after `virtualNow`), with its settle
    /// limit counted from the real instant `now`. The machine refuses a second one before asking.
    mutating func beginAdvance(session: SessionID, ticket: Ticket, to target: Instant, now: Instant,
                               settleLimit: Duration) {
        assert(pendingAdvance == nil && isManual && target >= virtualNow, "an advance the machine should refuse")
        pendingAdvance = PendingAdvance(session: session, ticket: ticket, target: target)
        sampling?.arm(at: virtualNow)
        deadlines.arm(.advanceSettle, at: now + settleLimit)
    }

    /// The settle limit passed (its deadline fired): the advance steps on even with callbacks outstanding.
    mutating func settleLimitPassed() {
        pendingAdvance?.settleLimitPassed = true
    }

    /// One step of the pending advance at the real instant `now` (`unsettled`: the apps have yet to react at this
    /// virtual instant — callbacks are unanswered, or a task just launched still runs); `nil` when none is pending.
    /// Deadlines and a sample at one instant: the deadlines first.
    mutating func stepAdvance(unsettled: Bool, now: Instant, settleLimit: Duration) -> AdvanceStep? {
        guard let advance = pendingAdvance else { return nil }
        if sampling?.awaiting == true || (unsettled && !advance.settleLimitPassed) { return .wait }
        let deadline = deviceDeadline
        let sample = sampling?.nextInstant
        guard let step = [deadline, sample].compactMap({ $0 }).min(), step <= advance.target else {
            virtualNow = max(virtualNow, advance.target)
            pendingAdvance = nil
            deadlines.cancel(.advanceSettle)
            return .finished(advance.ticket)
        }
        virtualNow = max(virtualNow, step)
        pendingAdvance?.settleLimitPassed = false
        deadlines.arm(.advanceSettle, at: now + settleLimit)
        guard let deadline, deadline <= step else {
            sampling?.take(at: virtualNow)
            return .sampled
        }
        return .fire
    }

    /// The timers of a `.fire` step were fed: the next sample instant is worth a reading.
    mutating func deadlinesFired() {
        sampling?.arm(at: virtualNow)
    }

    /// Drops the pending advance of a controller that left (virtual time stays where it has stepped to); its
    /// ticket, to forget, `nil` when `session` has none pending.
    mutating func cancelAdvance(of session: SessionID) -> Ticket? {
        guard let advance = pendingAdvance, advance.session == session else { return nil }
        pendingAdvance = nil
        deadlines.cancel(.advanceSettle)
        return advance.ticket
    }
}

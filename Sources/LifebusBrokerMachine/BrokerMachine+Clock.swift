import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// The lifecycle's clock: real (the driver's monotonic instant) or manual (virtual time, moved only by `advance`),
/// and the carrying out of an `advance`.
///
/// An advance to `target` repeats: while callbacks are outstanding, wait for their answers — up to the settle
/// limit (`MachineSettings.advanceSettleLimit`, real time, counted from the last step); then step virtual time to
/// the next core deadline at or before `target` and fire every deadline due at that instant. With no deadline
/// left before `target`, virtual time becomes `target` and the advance is answered with the callbacks still
/// outstanding (none when the device settled). So a hung app's budget deadline within the advance kills it at its
/// exact virtual instant (one settle limit of real time later), and an app still within its budget at `target`
/// holds the answer at most one settle limit. Invariant: `pendingAdvance` is set from the `advance` request until
/// it is answered, its controller leaves or the broker stops; `.advanceSettle` is armed exactly while it is set.
/// Virtual time never passes `maxVirtualTime` after the broker's start (an `advance` that would is refused), so
/// every record's time is a non-negative number of milliseconds.
extension BrokerMachine {
    /// The furthest virtual time goes: 100 years of 365 days after the broker's start (3,153,600,000,000 ms), far
    /// inside the 292 years of nanoseconds a signed 64-bit time holds.
    public static let maxVirtualTime = Duration.seconds(100 * 365 * 86_400)

    /// An `advance` being carried out.
    struct PendingAdvance {
        let session: SessionID
        let ticket: Ticket
        /// The virtual instant it moves to.
        let target: Instant
        /// The real-time settle limit since the last step has passed: step on even with callbacks outstanding.
        var settleLimitPassed = false
    }

    /// The instant the lifecycle runs at: virtual under the manual clock, the input's real instant otherwise.
    var lifecycleNow: Instant { settings.clock == .manual ? virtualNow : now }

    mutating func armDeviceTimer(_ id: TimerID, at deadline: Instant) {
        if settings.clock == .manual {
            virtualDeadlines.arm(id, at: deadline)
        } else {
            deadlines.arm(.device(id), at: deadline)
        }
    }

    mutating func cancelDeviceTimer(_ id: TimerID) {
        if settings.clock == .manual {
            virtualDeadlines.cancel(id)
        } else {
            deadlines.cancel(.device(id))
        }
    }

    /// `clock`: the kind and the lifecycle's time in milliseconds since the broker's start.
    func clockResult(outstanding: [OutstandingCallback]? = nil) -> ClockResult {
        ClockResult(clock: settings.clock, nowMs: milliseconds(lifecycleNow), outstanding: outstanding)
    }

    /// `advance`: starts moving virtual time on by `params.byMs` (carried on by `progressAdvance`).
    mutating func advance(_ params: AdvanceParams, session: SessionID, ticket: Ticket) throws(RPCError) {
        guard settings.clock == .manual else {
            throw RPCError(
                .clockNotManual, "this broker runs on the real clock; start lifebusd --clock manual to advance")
        }
        guard pendingAdvance == nil else {
            throw .limitExceeded("advancesInFlight", maximum: 1, "another advance is being carried out")
        }
        let target = virtualNow + Duration(clampingMilliseconds: params.byMs)
        guard target - epoch <= Self.maxVirtualTime else {
            let maximum = Int64(milliseconds(epoch + Self.maxVirtualTime))
            throw .invalidParams(field: "byMs", """
                would take virtual time past its maximum, \(maximum) ms (100 years) after the broker's start \
                (it is at \(Int64(milliseconds(virtualNow))) ms)
                """)
        }
        pendingAdvance = PendingAdvance(session: session, ticket: ticket, target: target)
        virtualSampling?.arm(at: virtualNow)
        deadlines.arm(.advanceSettle, at: now + settings.advanceSettleLimit)
    }

    /// Carries the pending advance on as far as it can go now: see the type's comment.
    mutating func progressAdvance(into effects: inout [BrokerEffect]) {
        guard var advance = pendingAdvance else { return }
        while true {
            let outstanding = outstandingCallbacks()
            if virtualSampling?.awaiting == true || (!outstanding.isEmpty && !advance.settleLimitPassed) {
                pendingAdvance = advance
                return
            }
            let deadline = virtualDeadlines.earliestDeadline()
            let sample = virtualSampling?.nextInstant
            guard let step = [deadline, sample].compactMap({ $0 }).min(), step <= advance.target else {
                virtualNow = max(virtualNow, advance.target)
                pendingAdvance = nil
                deadlines.cancel(.advanceSettle)
                afterJournaled(.answer(advance.ticket, clockResult(outstanding: outstanding).json), into: &effects)
                return
            }
            virtualNow = max(virtualNow, step)
            advance.settleLimitPassed = false
            deadlines.arm(.advanceSettle, at: now + settings.advanceSettleLimit)
            guard let deadline, deadline <= step else {
                virtualSampling?.take(at: virtualNow)
                continue
            }
            for id in virtualDeadlines.takeDue(at: virtualNow) {
                feedDevice(.timerFired(id), into: &effects)
            }
            virtualSampling?.arm(at: virtualNow)
        }
    }

    /// Drops the pending advance of a controller that left (virtual time stays where it has stepped to).
    mutating func cancelAdvance(of session: SessionID, into effects: inout [BrokerEffect]) {
        guard let advance = pendingAdvance, advance.session == session else { return }
        pendingAdvance = nil
        deadlines.cancel(.advanceSettle)
        effects.append(.forget(advance.ticket))
    }

    /// The callbacks apps have not answered yet, in the device's order of apps.
    func outstandingCallbacks() -> [OutstandingCallback] {
        device.appSnapshots.compactMap { snapshot in
            guard let callback = snapshot.outstandingCallback, let id = snapshot.outstandingCallbackID else {
                return nil
            }
            return OutstandingCallback(app: snapshot.id.rawValue, callback: callback, callbackID: Int64(id.rawValue))
        }
    }
}

import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// The lifecycle's clock: real (the driver's monotonic instant) or manual (virtual time, moved only by `advance`),
/// and the carrying out of an `advance`.
///
/// An advance to `target` repeats: while callbacks are outstanding, a `BGTask` launched at the current virtual
/// instant still runs (the app's reaction to the launch — its handler's work and `setTaskCompleted` — takes no
/// virtual time: `Device.hasTaskLaunched(at:)`), or an app told at that instant that its background tasks expire
/// still holds one (the expiration handler's `endBackgroundTask` takes none either:
/// `Device.hasBackgroundTaskWarned(at:)`), wait for their answers, completions and ends — up to the settle
/// limit (`MachineSettings.advanceSettleLimit`, real time, counted from the last step); then step virtual time to
/// the next core deadline at or before `target` and fire every deadline due at that instant. With no deadline
/// left before `target`, virtual time becomes `target` and the advance is answered with the callbacks still
/// outstanding (none when the device settled). So a hung app's budget deadline within the advance kills it at its
/// exact virtual instant (one settle limit of real time later), and an app still within its budget at `target`
/// holds the answer at most one settle limit. The time, the schedules and the steps are the clock's
/// (`MachineClock`); this file refuses what it must and feeds what a step makes due.
/// Virtual time never passes `maxVirtualTime` after the broker's start (an `advance` that would is refused), so
/// every record's time is a non-negative number of milliseconds.
extension BrokerMachine {
    /// The furthest virtual time goes: 100 years of 365 days after the broker's start (3,153,600,000,000 ms), far
    /// inside the 292 years of nanoseconds a signed 64-bit time holds.
    public static let maxVirtualTime = Duration.seconds(100 * 365 * 86_400)

    /// The instant the lifecycle runs at: virtual under the manual clock, the input's real instant otherwise.
    var lifecycleNow: Instant { clock.lifecycleNow(now) }

    /// `clock`: the kind and the lifecycle's time in milliseconds since the broker's start.
    func clockResult(outstanding: [OutstandingCallback]? = nil) -> ClockResult {
        ClockResult(clock: settings.clock, nowMs: milliseconds(lifecycleNow), outstanding: outstanding)
    }

    /// `advance`: starts moving virtual time on by `params.byMs` (carried on by `progressAdvance`).
    mutating func advance(_ params: AdvanceParams, session: SessionID, ticket: Ticket) throws(RPCError) {
        guard clock.isManual else {
            throw RPCError(
                .clockNotManual, "this broker runs on the real clock; start lifebusd --clock manual to advance")
        }
        guard clock.pendingAdvance == nil else {
            throw .limitExceeded("advancesInFlight", maximum: 1, "another advance is being carried out")
        }
        let target = clock.virtualNow + Duration(clampingMilliseconds: params.byMs)
        guard target - epoch <= Self.maxVirtualTime else {
            let maximum = Int64(milliseconds(epoch + Self.maxVirtualTime))
            throw .invalidParams(field: "byMs", """
                would take virtual time past its maximum, \(maximum) ms (100 years) after the broker's start \
                (it is at \(Int64(milliseconds(clock.virtualNow))) ms)
                """)
        }
        clock.beginAdvance(session: session, ticket: ticket, to: target, now: now,
                           settleLimit: settings.advanceSettleLimit)
    }

    /// Carries the pending advance on as far as it can go now: see the type's comment.
    mutating func progressAdvance(into effects: inout [BrokerEffect]) {
        while clock.pendingAdvance != nil {
            let outstanding = outstandingCallbacks()
            let step = clock.stepAdvance(
                unsettled: !outstanding.isEmpty || device.hasTaskLaunched(at: lifecycleNow)
                    || device.hasBackgroundTaskWarned(at: lifecycleNow), now: now,
                settleLimit: settings.advanceSettleLimit)
            switch step {
            case .none, .wait?:
                return
            case .sampled?:
                continue
            case .fire?:
                feedDueDeviceDeadlines(into: &effects)
                clock.deadlinesFired()
            case .finished(let ticket)?:
                afterJournaled(.answer(ticket, clockResult(outstanding: outstanding).json), into: &effects)
                return
            }
        }
    }

    /// Drops the pending advance of a controller that left (virtual time stays where it has stepped to).
    mutating func cancelAdvance(of session: SessionID, into effects: inout [BrokerEffect]) {
        guard let ticket = clock.cancelAdvance(of: session) else { return }
        effects.append(.forget(ticket))
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

    /// Whether a memory sample is awaited that the driver was not asked for yet; `true` once per sample
    /// (`VirtualSampling`). The driver calls it after each input and, on `true`, takes a round
    /// (`Supervisor.sampleMemory`) and feeds it as `memorySampled` (empty when nothing runs). (A request, not a
    /// `BrokerEffect`: effects are matched exhaustively by every driver, and only the process-owning one samples.)
    public mutating func takeMemorySampleRequest() -> Bool {
        clock.takeSampleRequest()
    }
}

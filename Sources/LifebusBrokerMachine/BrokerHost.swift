public import LifebusCore
public import LifebusJSON
public import LifebusLifecycle
public import LifebusProtocol

/// What a driver does for the broker machine: the bytes, processes and the one timer behind each `BrokerEffect`,
/// with no rule of its own. `perform(_:)` maps each effect to these calls and keeps the timer's one rule
/// (`armTimer(at:)`); the libuv `Broker` implements them over its loop, tests over a fake that records the calls.
///
/// Bound to the driver's thread: every call comes from `perform`, on the thread that feeds the machine. A call may
/// feed the machine again (a close can end a connection at once); the driver orders such nested inputs. A host is a
/// handle on the driver's state (its calls change that state, not the handle), so a struct may be one.
public protocol BrokerHost {
    /// The instant the one timer is armed for (`nil`: not armed). Set by `armTimer(at:)`; the driver clears it when
    /// the timer fires, before it feeds `BrokerInput.timerFired`.
    var timerArmedFor: Instant? { get nonmutating set }
    /// The monotonic instant now, on the clock the machine is fed with.
    func currentInstant() -> Instant
    /// (Re)starts the one timer to fire `milliseconds` from now (replacing where it was armed).
    func startTimer(afterMilliseconds milliseconds: UInt64)

    /// Answers the request behind `ticket` through the way back kept for it (nothing, when none is).
    func answer(_ ticket: Ticket, _ result: Result<JSONValue, RPCError>)
    func answerFire(_ ticket: Ticket, _ result: WrittenFireResult)
    func answerPing(_ ticket: Ticket, _ result: PingResult)
    /// Drops the way back to `ticket` (its peer went away).
    func forget(_ ticket: Ticket)
    func notify(_ session: SessionID, method: String, params: JSONValue)
    /// Sends a callback request whose answer the driver feeds as `BrokerInput.callbackAnswered(app, id, _)` (or,
    /// without a restoration payload, straight to `BrokerMachine.answered`).
    func sendCallback(to session: SessionID, _ params: CallbackParams, app: AppID, id: CallbackID)
    /// Lifts the session's connection to the limits of an introduced peer.
    func liftLimits(of session: SessionID)
    func close(_ session: SessionID, _ closing: BrokerEffect.Closing)

    /// Holds the process `pid` that `app` connected from over `session`; `releaseProcess` lets go of it.
    func holdProcess(of app: AppID, session: SessionID, pid: Int32)
    func releaseProcess(of app: AppID)
    /// SIGKILL, the way the machine chose.
    func kill(_ app: AppID, via route: KillRoute, reason: KillReason)
    /// Starts the app's process; the outcome is fed as `processSpawned`, `launchFailed` or `spawnRefused`.
    func spawn(_ app: InstalledApp)
    func freeze(_ app: AppID)
    func thaw(_ app: AppID)
    /// Reads and checks a manifest; the outcome is fed as `BrokerInput.installed(ticket, _)`.
    func readManifest(for ticket: Ticket, from source: ManifestSource)
    /// Feeds `BrokerInput.commitJournal` at the end of this loop turn, when the machine still has a commit to do.
    func requestJournalCommit()
}

extension BrokerHost {
    /// Carries out one effect through the host's calls, its payload moved into them (consumed, not copied).
    @inlinable
    public func perform(_ effect: consuming BrokerEffect) {
        switch consume effect {
        case .reply(let ticket, let result): answer(ticket, result)
        case .replyFire(let ticket, let result): answerFire(ticket, result)
        case .replyPing(let ticket, let result): answerPing(ticket, result)
        case .forget(let ticket): forget(ticket)
        case .notify(let session, let method, let params): notify(session, method: method, params: params)
        case .sendCallback(let session, let params, let app, let id):
            sendCallback(to: session, params, app: app, id: id)
        case .introduced(let session): liftLimits(of: session)
        case .holdProcess(let app, let session, let pid): holdProcess(of: app, session: session, pid: pid)
        case .releaseProcess(let app): releaseProcess(of: app)
        case .close(let session, let closing): close(session, closing)
        case .kill(let app, let route, let reason): kill(app, via: route, reason: reason)
        case .spawn(let app): spawn(app)
        case .install(let ticket, let source): readManifest(for: ticket, from: source)
        case .freeze(let app): freeze(app)
        case .thaw(let app): thaw(app)
        case .armTimer(let deadline): armTimer(at: deadline)
        case .commitJournal: requestJournalCommit()
        }
    }

    /// The timer's one rule: it is only ever moved earlier. A deadline later than the instant it is armed for (or
    /// no deadline: the one it had went) leaves it where it is; its early run feeds `timerFired`, which the machine
    /// takes as nothing due and answers with the deadline it has then. So a callback's budget, armed when it is
    /// sent and dropped when it is answered, does not move the timer twice. The delay is whole milliseconds rounded
    /// up: the timer never fires before the deadline.
    @inlinable
    public func armTimer(at deadline: Instant?) {
        guard let deadline else { return }
        if let armed = timerArmedFor, armed <= deadline { return }
        let now = currentInstant()
        let nanoseconds = deadline > now ? deadline.nanoseconds - now.nanoseconds : 0
        startTimer(afterMilliseconds: (nanoseconds + 999_999) / 1_000_000)
        timerArmedFor = deadline
    }
}

public import LifebusCore
public import LifebusJSON
public import LifebusLifecycle
public import LifebusProtocol

/// What the broker machine asks its driver to do, in order. Each is a value; the driver performs it and reports
/// what follows as a `BrokerInput`.
public enum BrokerEffect: Sendable {
    /// How a connection closes.
    public enum Closing: Sendable, Equatable {
        /// At once, dropping what is queued.
        case now
        /// After what is queued is written.
        case afterFlush
        /// After the flush when nothing is stuck in the output, else at once (a peer that does not read must not
        /// hold its connection open).
        case afterFlushUnlessStuck
    }

    /// Answers the request behind `ticket` (nothing, when the ticket is `.none`).
    case reply(Ticket, Result<JSONValue, RPCError>)
    /// Answers a `fire` with its result, written straight into the line (no `JSONValue` tree on the hot path).
    case replyFire(Ticket, WrittenFireResult)
    /// Answers a `ping`, written straight into the line (the most frequent answer of all: no tree either).
    case replyPing(Ticket, PingResult)
    /// The request behind `ticket` is answered no more (its peer went away): the driver drops the way back.
    case forget(Ticket)
    /// Sends a notification.
    case notify(SessionID, method: String, params: JSONValue)
    /// Sends a callback request to an app (its method is `params.callback`); its answer comes back as
    /// `BrokerInput.callbackAnswered(app, id, _)`.
    case sendCallback(SessionID, params: CallbackParams, app: AppID, id: CallbackID)
    /// The session said `hello`: lift it to the limits of an introduced peer (`ConnectionLimits`).
    case introduced(SessionID)
    /// An app that connected on its own (not spawned) said `hello` from `pid`: hold that process (its pidfd, else its
    /// pid and start time) so a kill reaches it only, never one that reused its pid. Never the broker's own pid.
    case holdProcess(AppID, session: SessionID, pid: Int32)
    /// The app's connection ended: let go of the process held for it (nothing, when none is).
    case releaseProcess(AppID)
    /// Closes the session's connection.
    case close(SessionID, Closing)
    /// SIGKILL to the app's process, the way `via` says (never the broker's own process: the machine gives no kill
    /// for it).
    case kill(AppID, via: KillRoute, reason: KillReason)
    /// Start the installed app's process, with everything needed to run it; what follows comes back as
    /// `processSpawned`, `launchFailed` or `spawnRefused`. Indirect: a rare effect whose payload would otherwise
    /// widen every effect the hot path moves.
    indirect case spawn(InstalledApp)
    /// Read and check a manifest and install it; the driver answers with `BrokerInput.installed(ticket, _)`.
    case install(Ticket, ManifestSource)
    /// Stop (`freeze`) or resume (`thaw`) a spawned app's process group (`--freeze-suspended`).
    case freeze(AppID)
    case thaw(AppID)
    /// The earliest deadline is now `deadline` (`nil`: none): the driver's one timer must fire no later than it, as
    /// `BrokerInput.timerFired` (`BrokerHost.armTimer(at:)`: it is only ever moved earlier, and an early run is taken
    /// as nothing due).
    case armTimer(Instant?)
    /// Lines wait in the journal: feed `BrokerInput.commitJournal` at the end of this loop turn, unless
    /// `BrokerMachine.isCommitRequested` is false by the time the effect is performed (the lines were written since
    /// and nothing waits for a sync: the commit would do nothing).
    case commitJournal
}

/// How a kill reaches an app's process. The machine chooses: a process it had spawned is killed whole, through the
/// supervisor; one that connected on its own by its pid.
public enum KillRoute: Sendable, Equatable {
    /// The spawned app's process group (or whole contained run), through the process the supervisor holds.
    case group
    /// The process with this pid (through its held pidfd when the driver holds one, `BrokerEffect.holdProcess`; to
    /// its group when it leads one). Never 0, never the broker's own pid.
    case pid(Int32)
}

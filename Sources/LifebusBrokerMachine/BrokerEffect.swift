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
    /// Closes the session's connection.
    case close(SessionID, Closing)
    /// SIGKILL to `pid` (the kernel's, or the one the core remembers), to its process group when it leads one.
    case kill(AppID, pid: Int32, reason: KillReason)
    /// Start the installed app's process; what follows comes back as `processSpawned` or `launchFailed`.
    case spawn(AppID)
    /// Read and check a manifest and install it; the driver answers with `BrokerInput.installed(ticket, _)`.
    case install(Ticket, ManifestSource)
    /// Stop (`freeze`) or resume (`thaw`) a spawned app's process group (`--freeze-suspended`).
    case freeze(AppID)
    case thaw(AppID)
    /// Forget the installed app's manifest (a running process keeps running).
    case uninstall(AppID)
    /// Points the one timer at `deadline` (`nil`: stop it); it fires as `BrokerInput.timerFired`.
    case armTimer(Instant?)
    /// Lines wait in the journal: feed `BrokerInput.commitJournal` at the end of this loop turn, unless
    /// `BrokerMachine.isCommitRequested` is false by the time the effect is performed (the lines were written since
    /// and nothing waits for a sync: the commit would do nothing).
    case commitJournal
}

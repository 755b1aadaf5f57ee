public import LifebusCore
public import LifebusLifecycle
public import LifebusProtocol

/// A connection as the broker machine knows it: a number the driver gives at accept and never reuses.
public struct SessionID: CounterIdentifier, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "\(rawValue)" }
}

/// The request a peer is owed an answer for: the driver keeps the way back (its responder) under this number, the
/// machine keeps the number until it answers. `none` is a notification's: answering it does nothing.
public struct Ticket: CounterIdentifier, Sendable {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static let none = Ticket(0)
}

/// Everything that happens to the broker machine. The driver feeds each one with the instant it happened
/// (`BrokerMachine.handle(_:at:wallMs:into:)`; `answered` alone also has a direct entry,
/// `BrokerMachine.answered(_:_:_:at:wallMs:into:)`, the same handling without the enum); nothing else changes the
/// machine.
public enum BrokerInput: Sendable {
    /// A connection was accepted; `identity` is the kernel's (`SO_PEERCRED`), `spoke` whether bytes were already
    /// waiting. The machine admits it (maybe sending an unintroduced peer away to make room) or refuses it.
    case accepted(SessionID, identity: PeerIdentity, overTCP: Bool, spoke: Bool)
    /// An unintroduced peer has sent bytes (not yet a whole line): it is no longer silent.
    case spoke(SessionID)
    /// A request or notification decoded from the session's connection; `ticket` answers it.
    case request(SessionID, RPCRequest, Ticket)
    /// The answer to a callback request the machine sent (`BrokerEffect.sendCallback`), read as its type (an
    /// unreadable result reads as `CallbackAnswer()`: the app answered, without details), without a restoration
    /// payload: its timing alone, a plain value, as every answer but a scene's `stateRestorationActivity` is (made
    /// by `callbackAnswered(_:_:_:)`).
    case answered(AppID, CallbackID, Result<AnswerTiming, RPCError>)
    /// An answer that carries a restoration payload (`stateRestorationActivity`'s; made by
    /// `callbackAnswered(_:_:_:)`). A case of its own, boxed: with the payload's reference in the hot case's answer,
    /// every input was destroyed through generic value witnesses (~300 instructions per callback under callgrind).
    indirect case answeredWithRestoration(AppID, CallbackID, CallbackAnswer)
    /// The session's connection has ended (for any reason); nothing more is sent to it. `droppedFor`: the broker
    /// ended it because the peer did not read its output (an app's ending is then `disconnected`, not `crashed`).
    case ended(SessionID, droppedFor: OutputDrop? = nil)
    /// The timer armed by the last `BrokerEffect.armTimer` went off.
    case timerFired
    /// The end of the loop turn the machine asked for (`BrokerEffect.commitJournal`): commit the journal, deliver
    /// what waited for it.
    case commitJournal
    /// The process of an installed app started (`BrokerEffect.spawn`).
    case processSpawned(AppID, pid: Int32)
    /// The process of an installed app could not be started; `path` and `errno` say why.
    case launchFailed(AppID, path: String, errno: Int32, detail: String)
    /// The driver did not carry out a `spawn` (its supervisor refused it, `because` says why): the launch fails.
    case spawnRefused(AppID, because: String)
    /// A spawned app's process was reaped; `killedFor` names the kill that ended it, if one did.
    case processExited(AppID, pid: Int32, ExitStatus, killedFor: KillReason?)
    /// One round of resident-memory samples, with the pressure policy's decision.
    case memorySampled(MemoryRound)
    /// The answer to `BrokerEffect.install` (`Ticket.none` for the manifests installed at start).
    /// Indirect: a rare input whose payload would otherwise widen every input.
    indirect case installed(Ticket, Result<InstalledApp, RPCError>)
    /// Stop: answer what is pending, close every session after its output.
    case shutdown
}

extension BrokerInput {
    /// The input for an app's answer to a callback: `answered` with its timing, or `answeredWithRestoration` when
    /// the answer carries a restoration payload. Inlinable: the driver makes one per callback answer.
    @inlinable
    public static func callbackAnswered(
        _ app: AppID, _ id: CallbackID, _ answer: Result<CallbackAnswer, RPCError>
    ) -> BrokerInput {
        switch answer {
        case .success(let answer) where !answer.isTimingOnly:
            .answeredWithRestoration(app, id, answer)
        case .success(let answer):
            .answered(app, id, .success(AnswerTiming(handlerMs: answer.handlerMs, handlerFailed: answer.handlerFailed)))
        case .failure(let error): .answered(app, id, .failure(error))
        }
    }
}

/// What the machine needs of a callback's answer besides a restoration payload: the app's own measure of its
/// handler and whether it failed (`CallbackAnswer`'s). A plain value of trivial members.
public struct AnswerTiming: Sendable, Equatable {
    public var handlerMs: Double?
    public var handlerFailed: Bool

    public init(handlerMs: Double?, handlerFailed: Bool) {
        self.handlerMs = handlerMs
        self.handlerFailed = handlerFailed
    }
}

extension CallbackAnswer {
    /// Whether the answer says nothing the machine keeps but its timing: no restoration payload, no push `result`,
    /// no `presentation`. Such an answer takes the hot path (`BrokerInput.answered`, `BrokerMachine.answered`); any
    /// other is fed whole.
    @inlinable
    public var isTimingOnly: Bool {
        !hasRestoration && result == nil && presentation == nil
    }
}

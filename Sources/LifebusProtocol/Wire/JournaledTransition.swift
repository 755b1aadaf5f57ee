public import LifebusLifecycle

/// A transition as the broker journals it: a `TransitionRecord`'s members with the clock times and durations kept
/// as the machine has them — whole nanoseconds (times since the broker started) — instead of milliseconds as
/// doubles.
///
/// The one-pass record path: the broker machine makes one from the core's integer instants; the journal line and the
/// `fire` answer's text (`write(to:)`) and the history window's packed slot are made straight from the integers,
/// and the `TransitionRecord` of doubles (`record`) only when something reads it (observers, `history`, a journal
/// kept in memory). A plain value (`Sendable`). Invariants: a time or duration in milliseconds is exactly
/// `Double(nanoseconds) / 1e6`; `write(to:)` writes the bytes `record.write(to:)` (and `record.json`) would
/// (`RecordWriterBoundTests`).
public struct JournaledTransition: Sendable, Equatable {
    public var seq: Int64
    public var app: String
    public var pid: Int32?
    public var callback: LifecycleCallback?
    /// `cause`, stored as a value and a flag (`EventCause.none` when there is none), for the reason
    /// `TransitionRecord` stores it so: an optional holding a string made the optimizer copy the whole value.
    @usableFromInline private(set) var storedCause: EventCause
    @usableFromInline private(set) var hasCause: Bool
    public var from: LifecycleState
    public var to: LifecycleState
    public var firedNs: Int64?
    public var sentNs: Int64
    public var answeredNs: Int64?
    public var handlerNs: Int64?
    public var budgetNs: Int64
    public var outcome: TransitionOutcome
    public var handlerFailed: Bool
    public var wallMs: Int64
    /// The scene that moved, for a scene transition.
    public var scene: TransitionScene?

    @inlinable
    public init(
        seq: Int64,
        app: String,
        pid: Int32?,
        callback: LifecycleCallback?,
        cause: EventCause?,
        from: LifecycleState,
        to: LifecycleState,
        firedNs: Int64?,
        sentNs: Int64,
        answeredNs: Int64?,
        handlerNs: Int64?,
        budgetNs: Int64,
        outcome: TransitionOutcome,
        wallMs: Int64,
        handlerFailed: Bool = false,
        scene: TransitionScene? = nil
    ) {
        self.seq = seq
        self.app = app
        self.pid = pid
        self.callback = callback
        self.storedCause = cause ?? .none
        self.hasCause = cause != nil
        self.from = from
        self.to = to
        self.firedNs = firedNs
        self.sentNs = sentNs
        self.answeredNs = answeredNs
        self.handlerNs = handlerNs
        self.budgetNs = budgetNs
        self.outcome = outcome
        self.handlerFailed = handlerFailed
        self.wallMs = wallMs
        self.scene = scene
    }

    /// The transition of `record` when each of its times is `Double(n) / 1e6` of some whole `n` (as the machine makes
    /// them); `nil` otherwise (a record read from elsewhere, which then stays a record).
    public init?(exactly record: borrowing TransitionRecord) {
        guard let sentNs = Self.nanoseconds(record.sentMs), let budgetNs = Self.nanoseconds(record.budgetMs) else {
            return nil
        }
        var firedNs: Int64?
        if let firedMs = record.firedMs {
            guard let value = Self.nanoseconds(firedMs) else { return nil }
            firedNs = value
        }
        var answeredNs: Int64?
        if let answeredMs = record.answeredMs {
            guard let value = Self.nanoseconds(answeredMs) else { return nil }
            answeredNs = value
        }
        var handlerNs: Int64?
        if let handlerMs = record.handlerMs {
            guard let value = Self.nanoseconds(handlerMs) else { return nil }
            handlerNs = value
        }
        self.init(
            seq: record.seq, app: record.app, pid: record.pid, callback: record.callback, cause: record.cause,
            from: record.from, to: record.to, firedNs: firedNs, sentNs: sentNs, answeredNs: answeredNs,
            handlerNs: handlerNs, budgetNs: budgetNs, outcome: record.outcome, wallMs: record.wallMs,
            handlerFailed: record.handlerFailed, scene: record.scene)
    }

    public var cause: EventCause? {
        hasCause ? storedCause : nil
    }

    /// The record of doubles it stands for.
    public var record: TransitionRecord {
        TransitionRecord(
            seq: seq, app: app, pid: pid, callback: callback, cause: cause, from: from, to: to,
            firedMs: firedNs.map(Self.milliseconds), sentMs: Self.milliseconds(sentNs),
            answeredMs: answeredNs.map(Self.milliseconds), handlerMs: handlerNs.map(Self.milliseconds),
            budgetMs: Self.milliseconds(budgetNs), outcome: outcome, wallMs: wallMs, handlerFailed: handlerFailed,
            scene: scene)
    }

    /// `nanoseconds` in milliseconds, as records carry them.
    @inlinable
    public static func milliseconds(_ nanoseconds: Int64) -> Double {
        Double(nanoseconds) / 1e6
    }

    /// `n` such that `milliseconds(n)` is `milliseconds` bit for bit, if there is one (within ±2^62).
    public static func nanoseconds(_ milliseconds: Double) -> Int64? {
        let scaled = (milliseconds * 1e6).rounded()
        guard scaled.isFinite, scaled.magnitude < 0x1p62 else { return nil }
        let value = Int64(scaled)
        return Self.milliseconds(value).bitPattern == milliseconds.bitPattern ? value : nil
    }
}

import LifebusLifecycle
import LifebusProtocol

/// A `TransitionRecord` as the history window keeps it, in 64 bytes instead of a record's 144: the app and the event
/// label as `InternTable` ids, the enums as their index in `allCases`, the monotonic times as whole nanoseconds (the
/// sent time whole, the fired and answered times as distances from it), the handler time in nanoseconds and the
/// budget in microseconds, and the entry's line length.
///
/// Made only when it gives back the same record bit for bit (`init?` answers `nil` otherwise and the window keeps
/// the record whole): each time must be exactly `Double(n) / 10^k` of its integer, each distance must fit its
/// field. The ids it holds are counted in their tables until `release`.
struct PackedTransition {
    var seq: Int64
    var wallMs: Int64
    var sentNs: Int64
    var eventID: UInt32
    /// `sentNs` minus the fired time; `UInt32.max`: no fired time.
    var firedBeforeSent: UInt32
    /// The answered time minus `sentNs`; `UInt32.max`: no answer.
    var answeredAfterSent: UInt32
    /// `UInt32.max`: not reported.
    var handlerNs: UInt32
    var budgetUs: UInt32
    var pid: Int32
    var app: UInt16
    var event: UInt16
    var lineBytes: UInt16
    /// `UInt8.max`: no callback.
    var callback: UInt8
    var from: UInt8
    var to: UInt8
    var outcome: UInt8
    var flags: UInt8

    static let hasPid: UInt8 = 1
    static let hasCause: UInt8 = 2
    static let handlerFailed: UInt8 = 4

    /// The tables of what packed records name: app ids (hashed through the digest each id carries, not the name)
    /// and event labels (a table each, so that each table's last value is the one most likely asked for next).
    struct Names {
        var apps = InternTable<AppID>()
        var events = InternTable<String>(remembersLast: true)
    }

    /// `app` is `record.app` as the machine's id. `record` is borrowed: an initializer's parameters are otherwise
    /// consumed, which made the window copy the record (two strings retained) only for this to destroy it.
    init?(_ record: borrowing TransitionRecord, app: AppID, lineBytes: Int, names: inout Names) {
        guard let lineBytes = UInt16(exactly: lineBytes), let sentNs = Self.integer(record.sentMs, scale: 1e6),
            let budgetUs = Self.field(record.budgetMs, scale: 1e3)
        else { return nil }
        var firedBeforeSent = UInt32.max
        if let firedMs = record.firedMs {
            guard let firedNs = Self.integer(firedMs, scale: 1e6), firedNs <= sentNs,
                let distance = UInt32(exactly: sentNs - firedNs), distance < .max
            else { return nil }
            firedBeforeSent = distance
        }
        var answeredAfterSent = UInt32.max
        if let answeredMs = record.answeredMs {
            guard let answeredNs = Self.integer(answeredMs, scale: 1e6), answeredNs >= sentNs,
                let distance = UInt32(exactly: answeredNs - sentNs), distance < .max
            else { return nil }
            answeredAfterSent = distance
        }
        var handlerNs = UInt32.max
        if let handlerMs = record.handlerMs {
            guard let value = Self.field(handlerMs, scale: 1e6) else { return nil }
            handlerNs = value
        }
        var eventID: UInt32 = 0
        if let cause = record.cause {
            guard let id = UInt32(exactly: cause.eventID) else { return nil }
            eventID = id
        }
        guard let app = names.apps.retain(app) else { return nil }
        var event: UInt16 = 0
        if let cause = record.cause {
            guard let id = names.events.retain(cause.event) else {
                names.apps.release(app)
                return nil
            }
            event = id
        }
        self.seq = record.seq
        self.wallMs = record.wallMs
        self.sentNs = sentNs
        self.eventID = eventID
        self.firedBeforeSent = firedBeforeSent
        self.answeredAfterSent = answeredAfterSent
        self.handlerNs = handlerNs
        self.budgetUs = budgetUs
        self.pid = record.pid ?? 0
        self.app = app
        self.event = event
        self.lineBytes = lineBytes
        self.callback = record.callback.map { Self.index($0, in: Self.callbacks) } ?? .max
        self.from = Self.index(record.from, in: Self.states)
        self.to = Self.index(record.to, in: Self.states)
        self.outcome = Self.index(record.outcome, in: Self.outcomes)
        self.flags = (record.pid == nil ? 0 : Self.hasPid) | (record.cause == nil ? 0 : Self.hasCause)
            | (record.handlerFailed ? Self.handlerFailed : 0)
    }

    /// The record it was made from.
    func record(names: Names) -> TransitionRecord {
        TransitionRecord(
            seq: seq,
            app: names.apps[app].rawValue,
            pid: flags & Self.hasPid == 0 ? nil : pid,
            callback: callback == .max ? nil : Self.callbacks[Int(callback)],
            cause: flags & Self.hasCause == 0 ? nil : EventCause(eventID: Int64(eventID), event: names.events[event]),
            from: Self.states[Int(from)],
            to: Self.states[Int(to)],
            firedMs: firedBeforeSent == .max ? nil : Self.milliseconds(sentNs - Int64(firedBeforeSent), scale: 1e6),
            sentMs: Self.milliseconds(sentNs, scale: 1e6),
            answeredMs: answeredAfterSent == .max
                ? nil : Self.milliseconds(sentNs + Int64(answeredAfterSent), scale: 1e6),
            handlerMs: handlerNs == .max ? nil : Self.milliseconds(Int64(handlerNs), scale: 1e6),
            budgetMs: Self.milliseconds(Int64(budgetUs), scale: 1e3),
            outcome: Self.outcomes[Int(outcome)],
            wallMs: wallMs,
            handlerFailed: flags & Self.handlerFailed != 0
        )
    }

    /// Gives back the table ids it holds.
    func release(_ names: inout Names) {
        names.apps.release(app)
        if flags & Self.hasCause != 0 { names.events.release(event) }
    }

    /// `n` such that `Double(n) / scale` is `milliseconds` bit for bit (the machine's own conversion from
    /// nanoseconds), if there is one.
    static func integer(_ milliseconds: Double, scale: Double) -> Int64? {
        let scaled = (milliseconds * scale).rounded()
        guard scaled.isFinite, scaled.magnitude < 0x1p62 else { return nil }
        let value = Int64(scaled)
        return Self.milliseconds(value, scale: scale).bitPattern == milliseconds.bitPattern ? value : nil
    }

    /// `integer(_:scale:)` when it fits a field below `UInt32.max` (the fields' "absent" value).
    static func field(_ milliseconds: Double, scale: Double) -> UInt32? {
        guard let value = integer(milliseconds, scale: scale), let field = UInt32(exactly: value), field < .max else {
            return nil
        }
        return field
    }

    static func milliseconds(_ value: Int64, scale: Double) -> Double {
        Double(value) / scale
    }

    private static let callbacks = LifecycleCallback.allCases
    private static let states = LifecycleState.allCases
    private static let outcomes = TransitionOutcome.allCases

    /// The index of `value` in its type's `allCases` (which holds every value).
    private static func index<T: Equatable>(_ value: T, in all: [T]) -> UInt8 {
        UInt8(all.firstIndex(of: value) ?? 0)
    }
}

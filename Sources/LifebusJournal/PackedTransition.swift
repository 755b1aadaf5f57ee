import LifebusLifecycle
import LifebusProtocol

/// A `TransitionRecord` as the history window keeps it, in 64 bytes instead of a record's 144: the app and the event
/// label as `InternTable` ids, the enums as themselves (one byte each), the monotonic times as whole nanoseconds (the
/// sent time whole, the fired and answered times as distances from it), the handler time in nanoseconds and the
/// budget in microseconds, and the entry's line length.
///
/// Made from a `JournaledTransition` (whose times are whole nanoseconds already), so it gives back the same record
/// bit for bit: `Double(n) / 10^k` of the same integers. `init?` answers `nil` (and the window keeps the record
/// whole) when a distance or duration does not fit its field or the budget is not whole microseconds. The ids it
/// holds are counted in their tables until `release`.
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
    var callback: LifecycleCallback?
    var from: LifecycleState
    var to: LifecycleState
    var outcome: TransitionOutcome
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

    /// `app` is `transition.app` as the machine's id. Made from the integers the machine journals (nothing is
    /// converted back from a double); `nil` when a time or duration does not fit its field, or a table is full, and
    /// for a scene transition (its scene members have no field: the window keeps it whole).
    /// `transition` is borrowed: an initializer's parameters are otherwise consumed, which made the window copy the
    /// value (two strings retained) only for this to destroy it.
    init?(_ transition: borrowing JournaledTransition, app: AppID, lineBytes: Int, names: inout Names) {
        let sentNs = transition.sentNs
        guard transition.scene == nil, let lineBytes = UInt16(exactly: lineBytes), transition.budgetNs % 1_000 == 0,
            let budgetUs = Self.field(transition.budgetNs / 1_000)
        else { return nil }
        var firedBeforeSent = UInt32.max
        if let firedNs = transition.firedNs {
            guard firedNs <= sentNs, let distance = Self.field(sentNs &- firedNs) else { return nil }
            firedBeforeSent = distance
        }
        var answeredAfterSent = UInt32.max
        if let answeredNs = transition.answeredNs {
            guard answeredNs >= sentNs, let distance = Self.field(answeredNs &- sentNs) else { return nil }
            answeredAfterSent = distance
        }
        var handlerNs = UInt32.max
        if let handler = transition.handlerNs {
            guard let value = Self.field(handler) else { return nil }
            handlerNs = value
        }
        let cause = transition.cause
        var eventID: UInt32 = 0
        if let cause {
            guard let id = UInt32(exactly: cause.eventID) else { return nil }
            eventID = id
        }
        guard let app = names.apps.retain(app) else { return nil }
        var event: UInt16 = 0
        if let cause {
            guard let id = names.events.retain(cause.event) else {
                names.apps.release(app)
                return nil
            }
            event = id
        }
        self.seq = transition.seq
        self.wallMs = transition.wallMs
        self.sentNs = sentNs
        self.eventID = eventID
        self.firedBeforeSent = firedBeforeSent
        self.answeredAfterSent = answeredAfterSent
        self.handlerNs = handlerNs
        self.budgetUs = budgetUs
        self.pid = transition.pid ?? 0
        self.app = app
        self.event = event
        self.lineBytes = lineBytes
        self.callback = transition.callback
        self.from = transition.from
        self.to = transition.to
        self.outcome = transition.outcome
        self.flags = (transition.pid == nil ? 0 : Self.hasPid) | (cause == nil ? 0 : Self.hasCause)
            | (transition.handlerFailed ? Self.handlerFailed : 0)
    }

    /// The record it was made from.
    func record(names: Names) -> TransitionRecord {
        TransitionRecord(
            seq: seq,
            app: names.apps[app].rawValue,
            pid: flags & Self.hasPid == 0 ? nil : pid,
            callback: callback,
            cause: flags & Self.hasCause == 0 ? nil : EventCause(eventID: Int64(eventID), event: names.events[event]),
            from: from,
            to: to,
            firedMs: firedBeforeSent == .max ? nil : Self.milliseconds(sentNs - Int64(firedBeforeSent), scale: 1e6),
            sentMs: Self.milliseconds(sentNs, scale: 1e6),
            answeredMs: answeredAfterSent == .max
                ? nil : Self.milliseconds(sentNs + Int64(answeredAfterSent), scale: 1e6),
            handlerMs: handlerNs == .max ? nil : Self.milliseconds(Int64(handlerNs), scale: 1e6),
            budgetMs: Self.milliseconds(Int64(budgetUs), scale: 1e3),
            outcome: outcome,
            wallMs: wallMs,
            handlerFailed: flags & Self.handlerFailed != 0
        )
    }

    /// Gives back the table ids it holds.
    func release(_ names: inout Names) {
        names.apps.release(app)
        if flags & Self.hasCause != 0 { names.events.release(event) }
    }

    /// `value` when it fits a field below `UInt32.max` (the fields' "absent" value).
    static func field(_ value: Int64) -> UInt32? {
        guard let field = UInt32(exactly: value), field < .max else { return nil }
        return field
    }

    static func milliseconds(_ value: Int64, scale: Double) -> Double {
        Double(value) / scale
    }
}

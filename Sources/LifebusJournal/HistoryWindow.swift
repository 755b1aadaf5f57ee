import DequeModule
import LifebusLifecycle
import LifebusProtocol

/// The journal entries `history` sees: the last `limit` entries, at most `maxBytes` of journal lines in all, oldest
/// first (`HistoryParams.retained` and `HistoryParams.retainedBytes` in the broker).
///
/// Owns its slots, the entries it keeps whole and the tables of the strings its packed slots name. A transition is
/// kept as a `PackedTransition` (64 bytes; 10,000 of them take 0.64 MB where whole records took 1.52 MB); any other
/// entry, and a transition that would not come back bit for bit, is kept whole in `whole` and its slot says so.
/// Invariants: `whole` holds one entry per slot marked `isWhole`, in the slots' order; `bytes` is the sum of the
/// slots' line lengths; the string tables hold exactly the ids the packed slots name. The slots' room is reserved
/// whole at once (pages the window has not reached are never touched, so cost no memory): grown by doubling, the
/// ring would span 16,384 slots, and both buffers would live during each copy.
struct HistoryWindow {
    /// One retained entry: packed, or a marker for the next entry of `whole` (`packed == nil`).
    private struct Slot {
        var packed: PackedTransition?
    }

    let limit: Int
    let maxBytes: Int
    private var slots: Deque<Slot>
    private var whole = Deque<(entry: JournalEntry, bytes: Int)>()
    private var names = PackedTransition.Names()
    private var bytes = 0

    init(limit: Int = HistoryParams.retained, maxBytes: Int = HistoryParams.retainedBytes) {
        self.limit = limit
        self.maxBytes = maxBytes
        slots = Deque(minimumCapacity: limit + 1)
    }

    /// Keeps `entry` (whose journal line is `lineBytes` long) and drops the oldest beyond the bounds.
    mutating func append(_ entry: JournalEntry, lineBytes: Int) {
        if case .transition(let record) = entry, let transition = JournaledTransition(exactly: record) {
            return appendTransition(transition, of: AppID(record.app), lineBytes: lineBytes)
        }
        keepWhole(entry, lineBytes: lineBytes)
    }

    /// `append(_:lineBytes:)` for a transition of `app` (`transition.app` as the machine's id), packed from its
    /// integers.
    mutating func appendTransition(_ transition: JournaledTransition, of app: AppID, lineBytes: Int) {
        guard let packed = PackedTransition(transition, app: app, lineBytes: lineBytes, names: &names) else {
            return keepWhole(.transition(transition.record), lineBytes: lineBytes)
        }
        slots.append(Slot(packed: packed))
        keepWithinBounds(adding: lineBytes)
    }

    private mutating func keepWhole(_ entry: JournalEntry, lineBytes: Int) {
        slots.append(Slot(packed: nil))
        whole.append((entry, lineBytes))
        keepWithinBounds(adding: lineBytes)
    }

    /// Counts `lineBytes` more and drops the oldest entries beyond the bounds.
    private mutating func keepWithinBounds(adding lineBytes: Int) {
        bytes += lineBytes
        while slots.count > limit || bytes > maxBytes, let oldest = slots.popFirst() {
            if let packed = oldest.packed {
                bytes -= Int(packed.lineBytes)
                packed.release(&names)
            } else {
                bytes -= whole.removeFirst().bytes
            }
        }
    }

    /// The retained entries, oldest first, of one app or all.
    func entries(app: String?) -> [JournalEntry] {
        // An app no packed slot names (`nil` id) can only be in `whole`.
        let packedApp = app.flatMap { names.apps.id(of: AppID($0)) }
        var found: [JournalEntry] = []
        var next = whole.startIndex
        for slot in slots {
            if let packed = slot.packed {
                if app == nil || packedApp == packed.app { found.append(.transition(packed.record(names: names))) }
            } else {
                let entry = whole[next].entry
                next += 1
                if app == nil || entry.app == app { found.append(entry) }
            }
        }
        return found
    }

    /// The last `count` transitions of `app`, oldest first.
    func lastTransitions(of app: String, count: Int) -> [TransitionRecord] {
        let packedApp = names.apps.id(of: AppID(app))
        var found: [TransitionRecord] = []
        var next = whole.endIndex
        for slot in slots.reversed() where found.count < count {
            if let packed = slot.packed {
                if packed.app == packedApp { found.append(packed.record(names: names)) }
            } else {
                next -= 1
                if case .transition(let record) = whole[next].entry, record.app == app { found.append(record) }
            }
        }
        return found.reversed()
    }

    /// How many entries are kept whole rather than packed, and how many values the packed ones name (for tests).
    var census: (whole: Int, strings: Int) { (whole.count, names.apps.liveCount + names.events.liveCount) }
}

import HeapModule
import LifebusCore
import LifebusLifecycle

/// Every deadline of the broker machine (the core's timers, hello timeouts, `wait` timeouts), multiplexed onto the
/// driver's one timer: which are armed, and their deadlines in order.
///
/// A pure value (no clock, no I/O). Arming and cancelling are O(log n) and O(1): a cancelled or re-armed timer's old
/// heap entry is dropped lazily when it reaches the top, and the heap is rebuilt when stale entries outnumber live
/// ones, so memory stays proportional to the armed timers. Invariant: `takeDue` returns each armed timer once, at or
/// after its latest deadline, and never a cancelled one; timers due at the same instant come out in the order they
/// were (last) armed. `liveTop` is the order of a heap entry known to be live (its timer armed with that order), so
/// asking for the earliest deadline again looks nothing up; it is forgotten when that timer is re-armed or cancelled.
struct TimerSchedule<Key: Hashable> {
    private struct Armed: Equatable {
        let deadline: Instant
        let order: UInt64
    }

    private struct Entry: Comparable {
        let deadline: Instant
        let order: UInt64
        let id: Key

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.deadline == rhs.deadline && lhs.order == rhs.order
        }

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
        }
    }

    private var heap = Heap<Entry>()
    private var armed: [Key: Armed] = [:]
    private var nextOrder: UInt64 = 0
    private var liveTop: UInt64?

    /// The number of armed timers.
    var count: Int { armed.count }

    /// The entries held, live or stale (for tests: after an arm, at most twice the armed timers, or 64).
    var heldEntries: Int { heap.count }

    /// Arms `id` for `deadline`, replacing an earlier deadline of the same timer.
    mutating func arm(_ id: Key, at deadline: Instant) {
        nextOrder += 1
        forgetLiveTop(armed.updateValue(Armed(deadline: deadline, order: nextOrder), forKey: id))
        heap.insert(Entry(deadline: deadline, order: nextOrder, id: id))
        compactIfMostlyStale()
    }

    /// Disarms `id`; unknown ids are ignored.
    mutating func cancel(_ id: Key) {
        forgetLiveTop(armed.removeValue(forKey: id))
    }

    /// Disarms every timer.
    mutating func removeAll() {
        armed.removeAll()
        heap = Heap()
        liveTop = nil
    }

    /// The earliest deadline of an armed timer.
    mutating func earliestDeadline() -> Instant? {
        dropStaleTop()
        return heap.min?.deadline
    }

    /// Removes and returns the timers whose deadline is at or before `now`, earliest first.
    mutating func takeDue(at now: Instant) -> [Key] {
        var due: [Key] = []
        while let top = heap.min, top.deadline <= now {
            heap.removeMin()
            if armed[top.id] == Armed(deadline: top.deadline, order: top.order) {
                armed[top.id] = nil
                due.append(top.id)
            }
        }
        return due
    }

    private mutating func dropStaleTop() {
        while let top = heap.min, top.order != liveTop {
            if armed[top.id] == Armed(deadline: top.deadline, order: top.order) {
                liveTop = top.order
                return
            }
            heap.removeMin()
        }
    }

    /// A timer's earlier arming is no longer live: if it was the known live top, the top is checked again.
    private mutating func forgetLiveTop(_ replaced: Armed?) {
        if let replaced, replaced.order == liveTop { liveTop = nil }
    }

    private mutating func compactIfMostlyStale() {
        guard heap.count > 64, heap.count > 2 * armed.count else { return }
        heap = Heap(armed.map { Entry(deadline: $1.deadline, order: $1.order, id: $0) })
    }
}

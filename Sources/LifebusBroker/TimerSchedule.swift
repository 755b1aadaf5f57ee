import HeapModule
import LifebusCore

/// The core's timers, multiplexed onto one libuv timer: which are armed, and their deadlines in order.
///
/// A pure value (no clock, no I/O). Arming and cancelling are O(log n) and O(1): a cancelled or re-armed timer's old
/// heap entry is dropped lazily when it reaches the top, and the heap is rebuilt when stale entries outnumber live
/// ones, so memory stays proportional to the armed timers. Invariant: `takeDue` returns each armed timer once, at or
/// after its latest deadline, and never a cancelled one.
struct TimerSchedule {
    private struct Entry: Comparable {
        let deadline: Instant
        let id: TimerID

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.id.rawValue) < (rhs.deadline, rhs.id.rawValue)
        }
    }

    private var heap = Heap<Entry>()
    private var armed: [TimerID: Instant] = [:]

    /// The number of armed timers.
    var count: Int { armed.count }

    /// Arms `id` for `deadline`, replacing an earlier deadline of the same timer.
    mutating func arm(_ id: TimerID, at deadline: Instant) {
        armed[id] = deadline
        heap.insert(Entry(deadline: deadline, id: id))
        compactIfMostlyStale()
    }

    /// Disarms `id`; unknown ids are ignored.
    mutating func cancel(_ id: TimerID) {
        armed[id] = nil
    }

    /// Disarms every timer.
    mutating func removeAll() {
        armed.removeAll()
        heap = Heap()
    }

    /// The earliest deadline of an armed timer.
    mutating func earliestDeadline() -> Instant? {
        dropStaleTop()
        return heap.min?.deadline
    }

    /// Removes and returns the timers whose deadline is at or before `now`, earliest first.
    mutating func takeDue(at now: Instant) -> [TimerID] {
        var due: [TimerID] = []
        while let top = heap.min, top.deadline <= now {
            heap.removeMin()
            if armed[top.id] == top.deadline {
                armed[top.id] = nil
                due.append(top.id)
            }
        }
        return due
    }

    private mutating func dropStaleTop() {
        while let top = heap.min, armed[top.id] != top.deadline {
            heap.removeMin()
        }
    }

    private mutating func compactIfMostlyStale() {
        guard heap.count > 64, heap.count > 2 * armed.count else { return }
        heap = Heap(armed.map { Entry(deadline: $1, id: $0) })
    }
}

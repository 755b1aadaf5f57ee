import DequeModule
import HeapModule
import LifebusCore
import LifebusLifecycle

/// Every deadline of the broker machine (the core's earliest, hello timeouts, `wait` timeouts), multiplexed onto the
/// driver's one timer: which are armed (`ArmedTimers`: numbered timers in a window indexed by number, the others
/// hashed), and their deadlines in order.
///
/// A pure value (no clock, no I/O). Most timers are armed in deadline order (a budget or a timeout from `now`
/// ends after the one armed before it with the same length), so they queue in `run`, sorted by construction: arming
/// one appends, and cancelling the oldest (answers mostly come in the order their callbacks went out) pops it. A
/// timer armed before the run's last deadline goes to `heap`. A cancelled or re-armed timer's old entry that is not
/// at a front is left in place, counted in `stale`, and dropped when it reaches a front; the entries are rebuilt when
/// stale ones outnumber live ones, so memory stays proportional to the armed timers.
///
/// Invariants: `run` is sorted by (deadline, order); `stale` counts the entries of `run` and `heap` whose timer is no
/// longer armed with that order, so with `stale == 0` both fronts are live and nothing is looked up;
/// `frontsKnownLive` says both fronts were checked since either last changed (a newly armed front is live); while
/// `earliestIsKnown`, `earliest` is the earliest deadline of an armed timer; `takeDue`
/// returns each armed timer once, at or after its latest deadline, and never a cancelled one; timers due at the same
/// instant come out in the order they were (last) armed.
struct TimerSchedule<Key: ScheduleKey> {
    private typealias Armed = ArmedTimers<Key>.Armed

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

    private var run = Deque<Entry>()
    private var heap = Heap<Entry>()
    private var armed = ArmedTimers<Key>()
    private var nextOrder: UInt64 = 0
    private var stale = 0
    private var frontsKnownLive = true
    /// The earliest deadline of an armed timer, while `earliestIsKnown` (the machine asks before and after every
    /// input; most inputs change nothing earlier than it).
    private var earliest: Instant?
    private var earliestIsKnown = true

    /// The number of armed timers.
    var count: Int { armed.count }

    /// The entries held, live or stale (for tests: after an arm, at most twice the armed timers, or 64).
    var heldEntries: Int { run.count + heap.count }

    /// The deadline `id` is armed for; `nil` when it is not armed.
    func deadline(of id: Key) -> Instant? {
        armed[id]?.deadline
    }

    /// Arms `id` for `deadline`, replacing an earlier deadline of the same timer.
    mutating func arm(_ id: Key, at deadline: Instant) {
        nextOrder += 1
        if let replaced = armed.updateValue(Armed(deadline: deadline, order: nextOrder), forKey: id) {
            retire(replaced)
            forget(replaced)
        }
        if earliestIsKnown, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        let entry = Entry(deadline: deadline, order: nextOrder, id: id)
        if run.isEmpty || run[run.count &- 1].deadline <= deadline {
            run.append(entry)
        } else {
            heap.insert(entry)
        }
        compactIfMostlyStale()
    }

    /// Disarms `id`; unknown ids are ignored.
    mutating func cancel(_ id: Key) {
        if let removed = armed.removeValue(forKey: id) {
            retire(removed)
            forget(removed)
        }
    }

    /// A timer armed for `retired` is gone: the earliest deadline is no longer known if it may have been that one.
    private mutating func forget(_ retired: Armed) {
        if let known = earliest, retired.deadline <= known { earliestIsKnown = false }
    }

    /// Disarms every timer.
    mutating func removeAll() {
        armed.removeAll()
        run.removeAll()
        heap = Heap()
        stale = 0
        frontsKnownLive = true
        earliest = nil
        earliestIsKnown = true
    }

    /// The earliest deadline of an armed timer.
    mutating func earliestDeadline() -> Instant? {
        if earliestIsKnown { return earliest }
        earliest = earliestArmedDeadline()
        earliestIsKnown = true
        return earliest
    }

    /// `earliestDeadline()` worked out from the fronts.
    private mutating func earliestArmedDeadline() -> Instant? {
        dropStaleFronts()
        switch (run.isEmpty, heap.isEmpty) {
        case (true, true): return nil
        case (false, true): return run[0].deadline
        case (true, false): return heap.min?.deadline
        case (false, false): return min(run[0].deadline, heap.min?.deadline ?? run[0].deadline)
        }
    }

    /// Removes and returns the earliest timer whose deadline is at or before `now` (`nil`: none is due). Taken one
    /// at a time, so that what handling one arms or moves is ordered with the rest.
    mutating func takeFirstDue(at now: Instant) -> Key? {
        while true {
            let fromRun: Bool
            if !run.isEmpty, run[0].deadline <= now {
                fromRun = heap.min.map { !($0 < run[0]) } ?? true
            } else if let top = heap.min, top.deadline <= now {
                fromRun = false
            } else {
                return nil
            }
            let entry = fromRun ? run.removeFirst() : heap.removeMin()
            frontsKnownLive = false
            earliestIsKnown = false
            if isLive(entry) {
                armed.removeValue(forKey: entry.id)
                return entry.id
            }
            stale -= 1
        }
    }

    /// A timer's arming `retired` is no longer live: its entry is dropped now when it is a front (no lookup later),
    /// counted stale otherwise.
    private mutating func retire(_ retired: Armed) {
        if !run.isEmpty, run[0].order == retired.order {
            run.removeFirst()
            frontsKnownLive = false
        } else if let top = heap.min, top.order == retired.order {
            heap.removeMin()
            frontsKnownLive = false
        } else {
            stale += 1
        }
    }

    private func isLive(_ entry: Entry) -> Bool {
        armed[entry.id] == Armed(deadline: entry.deadline, order: entry.order)
    }

    /// Drops stale entries from both fronts (nothing to look at while none is stale, or once both were checked).
    private mutating func dropStaleFronts() {
        guard stale > 0, !frontsKnownLive else { return }
        defer { frontsKnownLive = true }
        while !run.isEmpty, !isLive(run[0]) {
            run.removeFirst()
            stale -= 1
        }
        while let top = heap.min, !isLive(top) {
            heap.removeMin()
            stale -= 1
        }
    }

    private mutating func compactIfMostlyStale() {
        guard heldEntries > 64, heldEntries > 2 * armed.count else { return }
        run = Deque(armed.all.map { Entry(deadline: $0.armed.deadline, order: $0.armed.order, id: $0.key) }.sorted())
        heap = Heap()
        stale = 0
        frontsKnownLive = true
    }
}

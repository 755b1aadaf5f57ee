import DequeModule

/// The device's armed timers, kept by the device itself in the order they fall due: each with its deadline, the
/// number it was armed under (`TimerID`, counted here) and its purpose (which names the app). The app records hold
/// the ids; the queue answers the earliest deadline (`Device.earliestDeadline`) and hands out the due timers one at a
/// time (`Input.deadlineReached`), so the caller keeps one deadline for the whole device, not one per timer.
///
/// A pure value. Most timers are armed in deadline order (a budget from `now`) and cancelled oldest first, so arming
/// appends and cancelling finds its entry at the front. Invariants: `entries` is sorted by (deadline, id), each id at
/// most once, every id at most `lastID`; so timers due at one deadline come out in the order they were armed. The
/// device checks that the entries are exactly the timers its app records hold (`Device.invariantViolations`).
struct TimerQueue: Sendable {
    /// One armed timer.
    struct Entry: Sendable, Equatable {
        let deadline: Instant
        let id: TimerID
        let purpose: TimerPurpose
    }

    private(set) var entries = Deque<Entry>()
    private var lastID: UInt64 = 0

    /// The number of armed timers.
    var count: Int { entries.count }

    /// The earliest deadline of an armed timer.
    var earliestDeadline: Instant? { entries.first?.deadline }

    /// Arms a timer for `purpose` at `deadline`, after every timer armed for the same deadline; returns its id.
    mutating func arm(_ purpose: TimerPurpose, at deadline: Instant) -> TimerID {
        lastID += 1
        let entry = Entry(deadline: deadline, id: TimerID(lastID), purpose: purpose)
        var position = entries.count
        while position > 0, entries[position &- 1].deadline > deadline { position &-= 1 }
        if position == entries.count {
            entries.append(entry)
        } else {
            entries.insert(entry, at: position)
        }
        return entry.id
    }

    /// Disarms `id`; an id not armed is ignored.
    mutating func cancel(_ id: TimerID) {
        guard let position = entries.firstIndex(where: { $0.id == id }) else { return }
        entries.remove(at: position)
    }

    /// Removes and returns the earliest timer when it is due at `now` (ties: the one armed first).
    mutating func takeDue(at now: Instant) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        return entries.removeFirst()
    }

    /// The purpose `id` is armed for; `nil` when it is not armed.
    func purpose(of id: TimerID) -> TimerPurpose? {
        entries.first { $0.id == id }?.purpose
    }

    /// Whether the entries are in (deadline, id) order with no id twice (for the device's invariants).
    var isOrdered: Bool {
        zip(entries, entries.dropFirst()).allSatisfy { ($0.deadline, $0.id.rawValue) < ($1.deadline, $1.id.rawValue) }
    }
}

import DequeModule
import LifebusCore

/// A key `TimerSchedule` can file by number: a timer named by a counter (a session's hello timeout, armed as sessions
/// are numbered, mostly cancelled in the same order) is kept in a window indexed by that number, not hashed.
protocol ScheduleKey: Hashable {
    /// The key's counter, if it has one (`nil`: the key is hashed).
    var counter: UInt64? { get }
    /// The key whose `counter` is `counter`.
    init(counter: UInt64)
}

/// Which timers of a `TimerSchedule` are armed, and with which deadline and order: the one table the schedule
/// looks its entries up in.
///
/// Timers with a counter sit in `window`, a run of slots numbered from `base` (a lookup is an index, not a hash):
/// the core numbers its timers in the order it arms them and mostly cancels them in that order too, so the run
/// stays about as long as the timers in flight, and a cancelled front slot is dropped at once. Everything else — keys
/// without a counter, a counter older than the window, one far past its end — is hashed in `hashed`.
///
/// A pure value. Invariants: a key is in exactly one of `window` and `hashed`; every counter key in `hashed` is below
/// `base`; `window` is empty or starts with a live slot; `windowCount` counts its live slots; after an arm,
/// `window` is at most `max(64, 2 * windowCount)` slots long (older live slots move to `hashed` beyond that).
struct ArmedTimers<Key: ScheduleKey> {
    /// A timer's current arming: its deadline and the order that tells its live entry from stale ones.
    struct Armed: Equatable {
        let deadline: Instant
        let order: UInt64
    }

    /// Plain values (a key is its slot's number): moving and clearing slots retains and releases nothing.
    private var window = Deque<Armed?>()
    private var base: UInt64 = 0
    private var windowCount = 0
    private var hashed: [Key: Armed] = [:]

    /// The farthest past the window's end a counter may land and still extend it (the empty slots it leaves).
    private static var reach: UInt64 { 64 }

    /// The number of armed timers.
    var count: Int { windowCount + hashed.count }

    /// The arming of `key`, if it is armed.
    subscript(key: Key) -> Armed? {
        if let slot = slot(of: key) { return window[slot] }
        return hashed[key]
    }

    /// Arms `key` as `armed`; returns the arming it replaced.
    mutating func updateValue(_ armed: Armed, forKey key: Key) -> Armed? {
        if let slot = slot(of: key) {
            let replaced = window[slot]
            if replaced == nil { windowCount += 1 }
            window[slot] = armed
            return replaced
        }
        guard let counter = key.counter, counter >= base else { return hashed.updateValue(armed, forKey: key) }
        let end = base &+ UInt64(window.count)
        if window.isEmpty || counter &- end > Self.reach {
            moveWindowToHashed()
            base = counter
        } else {
            for _ in end..<counter { window.append(nil) }
        }
        window.append(armed)
        windowCount += 1
        keepWindowDense()
        return nil
    }

    /// Disarms `key`; returns its arming, if it was armed.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Armed? {
        guard let slot = slot(of: key) else { return hashed.removeValue(forKey: key) }
        guard let removed = window[slot] else { return nil }
        window[slot] = nil
        windowCount -= 1
        dropEmptyFront()
        return removed
    }

    mutating func removeAll() {
        window.removeAll()
        windowCount = 0
        hashed.removeAll()
    }

    /// The window's slots, live or empty (for tests: after an arm, at most `max(64, 2 * count)`).
    var windowSlots: Int { window.count }

    /// Every armed timer, in no particular order.
    var all: [(key: Key, armed: Armed)] {
        window.enumerated().compactMap { offset, armed in
            armed.map { (Key(counter: base &+ UInt64(offset)), $0) }
        } + hashed.map { ($0.key, $0.value) }
    }

    /// The window's slot for `key`, when its counter falls inside the window.
    private func slot(of key: Key) -> Int? {
        guard let counter = key.counter, counter >= base else { return nil }
        let offset = counter &- base
        return offset < UInt64(window.count) ? Int(offset) : nil
    }

    private mutating func dropEmptyFront() {
        while let first = window.first, first == nil {
            window.removeFirst()
            base &+= 1
        }
    }

    /// Moves the oldest live slots to `hashed` while the window is mostly empty slots (a long-lived timer at its
    /// front, with many numbered and cancelled after it).
    private mutating func keepWindowDense() {
        while window.count > max(64, 2 * windowCount), let first = window.popFirst() {
            if let armed = first {
                hashed[Key(counter: base)] = armed
                windowCount -= 1
            }
            base &+= 1
            dropEmptyFront()
        }
    }

    private mutating func moveWindowToHashed() {
        for (offset, armed) in window.enumerated() {
            if let armed { hashed[Key(counter: base &+ UInt64(offset))] = armed }
        }
        window.removeAll()
        windowCount = 0
    }
}

extension BrokerMachine.Deadline: ScheduleKey {
    /// Hello timeouts are numbered by their session (armed as sessions are accepted); the others are hashed.
    var counter: UInt64? {
        if case .hello(let session) = self { return session.rawValue }
        return nil
    }

    init(counter: UInt64) {
        self = .hello(SessionID(counter))
    }
}

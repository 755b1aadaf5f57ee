import LifebusCore
import LifebusIO
import LifebusRPC

/// The `wait` requests not yet answered: which app, which state, who asked, and the timer that gives up.
///
/// A value owned by the broker, on its loop. Invariant: a waiter is answered at most once and its timer is closed
/// when it leaves the list, whichever way it leaves.
struct WaiterList {
    struct Waiter {
        let number: UInt64
        let session: UInt64
        let app: AppID
        let state: AppState
        let responder: RPCResponder
        let timer: LoopTimer
    }

    private var waiters: [Waiter] = []
    private var nextNumber: UInt64 = 1

    var isEmpty: Bool { waiters.isEmpty }

    /// Adds a waiter; returns its number (for its timeout).
    mutating func add(session: UInt64, app: AppID, state: AppState, responder: RPCResponder, timer: LoopTimer) -> UInt64 {
        let number = nextNumber
        nextNumber += 1
        waiters.append(Waiter(number: number, session: session, app: app, state: state, responder: responder, timer: timer))
        return number
    }

    /// Removes and returns the waiters whose app is now in the state they wait for.
    mutating func takeSatisfied(_ stateOf: (AppID) -> AppState) -> [Waiter] {
        guard !waiters.isEmpty else { return [] }
        var satisfied: [Waiter] = []
        waiters.removeAll { waiter in
            guard stateOf(waiter.app) == waiter.state else { return false }
            waiter.timer.close()
            satisfied.append(waiter)
            return true
        }
        return satisfied
    }

    /// Removes and returns the waiter with `number` (its time is up).
    mutating func take(number: UInt64) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.number == number }) else { return nil }
        let waiter = waiters.remove(at: index)
        waiter.timer.close()
        return waiter
    }

    /// Drops the waiters of a session that went away.
    mutating func cancel(session: UInt64) {
        waiters.removeAll { waiter in
            guard waiter.session == session else { return false }
            waiter.timer.close()
            return true
        }
    }

    /// Drops every waiter (the broker is stopping).
    mutating func cancelAll() {
        for waiter in waiters { waiter.timer.close() }
        waiters.removeAll()
    }
}

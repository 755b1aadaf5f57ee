import LifebusCore
import LifebusIO
import LifebusLifecycle
import LifebusRPC

/// The `wait` requests not yet answered: which app, which states, who asked, and the timer that gives up.
///
/// A value owned by the broker, on its loop; kept by app, so checking the apps an input touched costs nothing for
/// the waiters of other apps. Invariant: a waiter is answered at most once and its timer is closed when it leaves
/// the list, whichever way it leaves; `count(session:)` is the number of a session's waiters in the list.
struct WaiterList {
    struct Waiter {
        let number: UInt64
        let session: UInt64
        let app: AppID
        let states: Set<LifecycleState>
        let responder: RPCResponder
        let timer: LoopTimer
    }

    private var byApp: [AppID: [Waiter]] = [:]
    private var bySession: [UInt64: Int] = [:]
    private var nextNumber: UInt64 = 1

    /// How many waiters `session` has in the list.
    func count(session: UInt64) -> Int { bySession[session] ?? 0 }

    var isEmpty: Bool { byApp.isEmpty }

    /// Adds a waiter; returns its number (for its timeout).
    mutating func add(
        session: UInt64, app: AppID, states: Set<LifecycleState>, responder: RPCResponder, timer: LoopTimer
    ) -> UInt64 {
        let number = nextNumber
        nextNumber += 1
        byApp[app, default: []].append(
            Waiter(number: number, session: session, app: app, states: states, responder: responder, timer: timer))
        bySession[session, default: 0] += 1
        return number
    }

    /// Removes and returns the waiters of `app` that wait for `state` (among others).
    mutating func takeSatisfied(app: AppID, state: LifecycleState) -> [Waiter] {
        guard let waiting = byApp[app] else { return [] }
        var satisfied: [Waiter] = []
        var rest: [Waiter] = []
        for waiter in waiting {
            if waiter.states.contains(state) {
                waiter.timer.close()
                uncount(waiter.session)
                satisfied.append(waiter)
            } else {
                rest.append(waiter)
            }
        }
        byApp[app] = rest.isEmpty ? nil : rest
        return satisfied
    }

    /// Removes and returns the waiter with `number` of `app` (its time is up).
    mutating func take(number: UInt64, app: AppID) -> Waiter? {
        guard var waiting = byApp[app], let index = waiting.firstIndex(where: { $0.number == number }) else { return nil }
        let waiter = waiting.remove(at: index)
        byApp[app] = waiting.isEmpty ? nil : waiting
        waiter.timer.close()
        uncount(waiter.session)
        return waiter
    }

    /// Drops the waiters of a session that went away.
    mutating func cancel(session: UInt64) {
        for (app, waiting) in byApp {
            let rest = waiting.filter { waiter in
                guard waiter.session == session else { return true }
                waiter.timer.close()
                return false
            }
            if rest.count != waiting.count { byApp[app] = rest.isEmpty ? nil : rest }
        }
        bySession[session] = nil
    }

    /// Removes and returns every waiter, their timers closed (the broker is stopping and answers them).
    mutating func takeAll() -> [Waiter] {
        let all = Array(byApp.values.joined())
        for waiter in all { waiter.timer.close() }
        byApp.removeAll()
        bySession.removeAll()
        return all
    }

    private mutating func uncount(_ session: UInt64) {
        let left = (bySession[session] ?? 1) - 1
        bySession[session] = left > 0 ? left : nil
    }
}

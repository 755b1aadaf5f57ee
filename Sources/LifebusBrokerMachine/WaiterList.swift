import LifebusCore
import LifebusLifecycle

/// The `wait` requests not yet answered: which app (or which scene of it, and its scene states), which states, who
/// asked, and how long it waits (its deadline is in the machine's one schedule, under
/// `BrokerMachine.Deadline.wait(number)`).
///
/// A value inside the broker machine; kept by app, so checking the apps an input touched costs nothing for the
/// waiters of other apps. Invariant: a waiter leaves the list once, whichever way (answered, timed out, its session
/// gone), and the machine cancels its deadline then; `count(session:)` is the number of a session's waiters in it
/// (`invariantViolations`).
struct WaiterList {
    struct Waiter {
        let number: UInt64
        let session: SessionID
        let app: AppID
        /// The app states an app's wait waits for (empty for a scene's wait).
        let states: Set<LifecycleState>
        /// A scene's wait: the scene and the scene states it waits for (`nil` for an app's wait).
        let scene: (id: SceneID, states: Set<SceneState>)?
        let ticket: Ticket
        /// What the timeout's error says it waited for, and how long.
        let statesText: String
        let timeout: Duration
    }

    /// The waiters by app (settable in the module, as `bySession`, so tests can corrupt a list).
    var byApp: [AppID: [Waiter]] = [:]
    var bySession: [SessionID: Int] = [:]
    private var nextNumber: UInt64 = 1

    /// How many waiters `session` has in the list.
    func count(session: SessionID) -> Int { bySession[session] ?? 0 }

    var isEmpty: Bool { byApp.isEmpty }

    /// Adds a waiter (a scene's when `scene` is given, whose `states` are then empty); returns its number (for its
    /// deadline).
    mutating func add(
        session: SessionID, app: AppID, states: Set<LifecycleState>,
        scene: (id: SceneID, states: Set<SceneState>)? = nil, ticket: Ticket, statesText: String, timeout: Duration
    ) -> UInt64 {
        let number = nextNumber
        nextNumber += 1
        byApp[app, default: []].append(Waiter(
            number: number, session: session, app: app, states: states, scene: scene, ticket: ticket,
            statesText: statesText, timeout: timeout))
        bySession[session, default: 0] += 1
        return number
    }

    /// Removes and returns the waiters of `app` that wait for `state` (among others), and the scene waiters of
    /// `app` whose scene is in one of their states (`sceneState` tells a scene's state; asked only when `app` has
    /// scene waiters).
    mutating func takeSatisfied(
        app: AppID, state: LifecycleState, sceneState: (SceneID) -> SceneState
    ) -> [Waiter] {
        guard let waiting = byApp[app] else { return [] }
        var satisfied: [Waiter] = []
        var rest: [Waiter] = []
        for waiter in waiting {
            let reached = if let scene = waiter.scene {
                scene.states.contains(sceneState(scene.id))
            } else {
                waiter.states.contains(state)
            }
            if reached {
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
        guard var waiting = byApp[app], let index = waiting.firstIndex(where: { $0.number == number }) else {
            return nil
        }
        let waiter = waiting.remove(at: index)
        byApp[app] = waiting.isEmpty ? nil : waiting
        uncount(waiter.session)
        return waiter
    }

    /// Removes and returns the waiters of a session that went away.
    mutating func cancel(session: SessionID) -> [Waiter] {
        guard bySession[session] != nil else { return [] }
        var cancelled: [Waiter] = []
        for (app, waiting) in byApp {
            let rest = waiting.filter { waiter in
                guard waiter.session == session else { return true }
                cancelled.append(waiter)
                return false
            }
            if rest.count != waiting.count { byApp[app] = rest.isEmpty ? nil : rest }
        }
        bySession[session] = nil
        return cancelled
    }

    /// Removes and returns every waiter (the broker is stopping and answers them).
    mutating func takeAll() -> [Waiter] {
        let all = Array(byApp.values.joined())
        byApp.removeAll()
        bySession.removeAll()
        return all
    }

    /// The broken invariants, in words; empty when each waiter is listed once, under its own app, and each
    /// session's count is the number of its waiters.
    var invariantViolations: [String] {
        var broken: [String] = []
        var numbers: Set<UInt64> = []
        var counts: [SessionID: Int] = [:]
        for (app, waiting) in byApp {
            if waiting.isEmpty { broken.append("\(app) has an empty list of waiters") }
            for waiter in waiting {
                if waiter.app != app {
                    broken.append("waiter \(waiter.number) of \(waiter.app) is listed under \(app)")
                }
                if !numbers.insert(waiter.number).inserted {
                    broken.append("waiter \(waiter.number) is listed twice")
                }
                counts[waiter.session, default: 0] += 1
            }
        }
        for session in Set(bySession.keys).union(counts.keys) where bySession[session] != counts[session] {
            let counted = bySession[session] ?? 0
            broken.append("session \(session) is counted \(counted) waiters but has \(counts[session] ?? 0)")
        }
        return broken
    }

    private mutating func uncount(_ session: SessionID) {
        let left = (bySession[session] ?? 1) - 1
        bySession[session] = left > 0 ? left : nil
    }
}

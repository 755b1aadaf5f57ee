import LifebusCore
import LifebusLifecycle

/// What the broker machine owes its clients and when: the controller events in flight and the `fire` requests
/// waiting for them (`EventBook`), the `wait` requests (`WaiterList`), when each app and each connected scene entered
/// its state (what `wait` and `status` answer with), the apps whose state or scenes changed during the input (whose
/// waiters are looked at once, at its end), and what waits for the loop turn's journal commit (`--journal-sync`)
/// with whether that commit was asked for.
///
/// A plain value inside the machine, mutated in place (never copied per input; `@usableFromInline` so that
/// `BrokerMachine.isCommitRequested`, which the driver reads after every input, reads the one flag in place rather
/// than through a copy of the machine); the machine changes the held deliveries and the commit request only through
/// its methods (`hold`, `requestCommit`, `takeHeld`, `commitNotNeeded`); `events` and `waiters` keep their own
/// invariants.
/// Invariants (`invariantViolations`, at rest between inputs): no app is left marked changed; a held delivery has
/// its commit asked for; the waiters' indexes agree (`WaiterList.invariantViolations`).
@usableFromInline
struct DeliveryBook {
    /// The controller events in flight.
    var events = EventBook()
    /// The `wait` requests not answered yet.
    var waiters = WaiterList()
    /// When each app entered its current state (the instant of the core's last `stateChanged` for it; the state
    /// itself is the core's).
    private(set) var enteredAt: [AppID: Instant] = [:]
    /// When each connected scene entered its state (the instant of the core's last `sceneChanged` for it), by app:
    /// a scene's entry leaves when it disconnects (back to `unattached`), so only connected scenes are kept.
    private(set) var sceneEnteredAt: [AppID: [SceneID: Instant]] = [:]
    /// The apps whose state changed during the input being fed while waits are pending (a buffer reused across
    /// inputs: `takeChangedApps`, `returnChangedApps`).
    private(set) var changedApps: [AppID] = []
    /// What waits for the loop turn's journal commit (`--journal-sync` only).
    private(set) var held: [BrokerMachine.Delivery] = []
    /// A `commitJournal` effect was given, its input has not come yet, and the commit still has work to do.
    @usableFromInline private(set) var commitRequested = false

    /// `app` entered a state at `instant`: its waiters are looked at when the input ends (when any wait at all).
    mutating func stateChanged(_ app: AppID, at instant: Instant) {
        enteredAt[app] = instant
        if !waiters.isEmpty { changedApps.append(app) }
    }

    /// Scene `scene` of `app` entered `state` at `instant`: the app's waiters are looked at when the input ends (when
    /// any wait at all).
    mutating func sceneChanged(_ app: AppID, _ scene: SceneID, to state: SceneState, at instant: Instant) {
        if state == .unattached {
            sceneEnteredAt[app]?[scene] = nil
        } else {
            sceneEnteredAt[app, default: [:]][scene] = instant
        }
        if !waiters.isEmpty { changedApps.append(app) }
    }

    /// The apps that changed during the input, in order (repeats included); the buffer goes back with
    /// `returnChangedApps` once read.
    mutating func takeChangedApps() -> [AppID] {
        var changed: [AppID] = []
        swap(&changed, &changedApps)
        return changed
    }

    /// Gives the emptied buffer of `takeChangedApps` back, its room kept for the next input.
    mutating func returnChangedApps(_ buffer: inout [AppID]) {
        buffer.removeAll(keepingCapacity: true)
        swap(&buffer, &changedApps)
    }

    /// Holds `delivery` until the turn's journal commit.
    mutating func hold(_ delivery: BrokerMachine.Delivery) {
        held.append(delivery)
    }

    /// Asks for the turn's commit; whether it was not asked for already (the `commitJournal` effect is then due).
    mutating func requestCommit() -> Bool {
        guard !commitRequested else { return false }
        commitRequested = true
        return true
    }

    /// The commit is carried out: the deliveries it held, in order, and no commit is asked for any more.
    mutating func takeHeld() -> [BrokerMachine.Delivery] {
        commitRequested = false
        var deliveries: [BrokerMachine.Delivery] = []
        swap(&deliveries, &held)
        return deliveries
    }

    /// Every line is written and nothing is held: the commit asked for has nothing left to do.
    mutating func commitNotNeeded() {
        if held.isEmpty { commitRequested = false }
    }

    /// The broken invariants, in words; empty when the book is sound (at rest, between inputs).
    var invariantViolations: [String] {
        var broken = waiters.invariantViolations
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) {
            if !holds { broken.append(what()) }
        }
        expect(changedApps.isEmpty, "\(changedApps.count) changed apps are left over from an input")
        expect(held.isEmpty || commitRequested, "\(held.count) deliveries are held but no commit is asked for")
        return broken
    }
}

import LifebusLifecycle

/// What one app must do as part of a chain; resolved against the app's state when its stage starts,
/// and after each answer, so the callbacks always start from where the app really is.
enum Intent: Sendable, Equatable {
    /// Walk the callbacks from the current state to `target` (`background` means "leave the front").
    case moveTo(LifecycleState)
    /// Launch without coming to the front: `didFinishLaunching` runs in the background, then
    /// `didEnterBackground` (Apple's "launching into the background").
    case launchInBackground
    /// The `didEnterBackground` that ends a background launch.
    case enterBackground
    case memoryWarning
    case terminate
    /// Killed without notice for memory (`jetsam`) if still suspended when its stage comes: the victims of a
    /// critical warning that first reclaims scenes (`Protocol/lifecycle.md` S40).
    case jetsam
    /// A switcher swipe of a scene app (`terminate --by-user`): its scenes go as `Profile.switcherClose` says,
    /// its sessions are discarded, then `willTerminate`.
    case closeApp
    /// A switcher swipe of one scene (the book's `target`): it goes as `Profile.switcherClose` says, then its
    /// session is discarded and the app told at once.
    case closeScene
    /// The system disconnects a background scene (the book's `target`; `nil`: every background scene), asking for
    /// its restoration payload first; the session survives. (No payloads here: `Intent` stays one byte, as the
    /// app-delegate path reads it on every answer.)
    case reclaimScene
    /// Background execution (`Device+TaskScheduler.swift`): launch the app into the background if it must, then call
    /// the launch handler of each of its due `BGTask`s (`performBackgroundTask`).
    case performTasks
    /// Call the expiration handler of each of the app's `BGTask`s marked to expire (`backgroundTaskWillExpire`).
    case expireTasks
    /// Launch the app into the background if it must, then hand it each silent push due
    /// (`didReceiveRemoteNotification`).
    case deliverPushes
    /// `protectedDataWillBecomeUnavailable`, to a running app that is not suspended.
    case protectedDataLocking
    /// `protectedDataDidBecomeAvailable`, to a running app that is not suspended.
    case protectedDataUnlocked

    /// A work no scene takes part in: a scene app moves for it as an app-delegate app does (`sceneMove(for:_:)`
    /// hands it to `move(for:_:)`; `prepareScenes` leaves the book alone), so `Device.step` goes straight to
    /// `move(for:_:)` without reading the app's scenes. A memory warning to every app is the fan-out `scripts/bench`
    /// measures with scene apps.
    var leavesScenes: Bool {
        switch self {
        case .memoryWarning, .enterBackground, .jetsam, .performTasks, .expireTasks, .deliverPushes,
            .protectedDataLocking, .protectedDataUnlocked:
            true
        case .moveTo, .launchInBackground, .terminate, .closeApp, .closeScene, .reclaimScene:
            false
        }
    }
}

/// One step of a chain: app `app` performs `intent` once every work of the previous stage completed.
struct Work: Sendable {
    var app: Int
    var intent: Intent
    var stage: Int
}

/// The controller event (or connection) being carried out, with everything it caused so far.
struct Chain: Sendable {
    var cause: EventID?
    var fired: Instant?
    var works: [Work] = []
    /// The first work not yet started.
    var next = 0
    /// Works started and not yet completed.
    var running = 0
    var failure: Rejection?

    init(cause: EventID?, fired: Instant?) {
        self.cause = cause
        self.fired = fired
    }
}

/// What the device is doing: nothing (the next queued work starts at once), or carrying out one chain, from the
/// moment its event or connection leaves the queue (and is planned) until every work of it completed. A refusal
/// while planning ends the chain at once.
///
/// The chain is a stored optional, not an enum's payload, so reading and changing it works in place: the per-answer
/// path (`advance`, `finishWork`) neither copies the chain nor retains its works.
struct Activity: Sendable {
    /// The chain being carried out; `nil` while idle.
    private(set) var chain: Chain?

    static var idle: Activity { Activity(chain: nil) }

    static func running(_ chain: Chain) -> Activity { Activity(chain: chain) }

    /// Ends the running chain and hands it over, moved out (no copy of it, and only the one it became is
    /// destroyed); `nil` when idle.
    mutating func takeChain() -> Chain? {
        chain.take()
    }

    /// The controller event being carried out; `nil` when idle or carrying out a connection.
    var cause: EventID? { chain?.cause }

    /// When the event being carried out fired.
    var fired: Instant? { chain?.fired }

    /// The stage of the running chain's next work not yet started; `nil` when every work has started (or no chain
    /// runs).
    var nextStage: Int? {
        guard let next = chain?.next, next < chain!.works.count else { return nil }
        return chain!.works[next].stage
    }

    /// Changes the running chain. Only the device's own code calls it, and only while a chain runs (planning,
    /// stages, answers and endings within a chain): a call while idle is a broken invariant of the device.
    mutating func modifyChain(_ body: (inout Chain) -> Void) {
        guard chain != nil else {
            preconditionFailure("no chain is being carried out")
        }
        body(&chain!)
    }

    /// Takes the next work of `stage` off the running chain and counts it as running; `nil` once the stage has
    /// started (or no chain runs).
    mutating func startNextWork(of stage: Int) -> Work? {
        guard nextStage == stage else { return nil }
        let work = chain!.works[chain!.next]
        chain!.next += 1
        chain!.running += 1
        return work
    }
}

/// An entry of the device's queue: a controller event, or an app that connected on its own.
enum QueuedWork: Sendable {
    case event(EventID, ControllerEvent, fired: Instant)
    case connected(Int)
    /// App `i`'s `BGTask`s or deferred pushes want attention outside any event (a task fell due, its expiration
    /// time came, the push rate window allows): a chain of its own, as a connection has.
    case tasks(Int)
}

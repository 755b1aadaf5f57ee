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

/// An entry of the device's queue: a controller event, or an app that connected on its own.
enum QueuedWork: Sendable {
    case event(EventID, ControllerEvent, fired: Instant)
    case connected(Int)
}

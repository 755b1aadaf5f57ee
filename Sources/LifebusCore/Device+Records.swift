import LifebusLifecycle

/// What the device knows about one app. Records are never removed: an app that ends keeps its identity
/// (so it can be relaunched) and its flags until it connects again. `reset` forgets an app without a process by
/// dropping it from `index`: its record stays as a tombstone, and a later mention creates a fresh record.
struct AppRecord: Sendable {
    enum Connection: Sendable {
        /// No process: never connected, exited, or its connection dropped.
        case none
        case connected
        /// Answered `willTerminate`; its process is expected to exit within the exit grace.
        case exiting
        /// Killed by the device; waiting for the process to be reported gone.
        case killed
    }

    let id: AppID
    var flags = AppFlags()
    var pid: Int32?
    var connection = Connection.none
    var state = LifecycleState.notRunning
    /// The app's part of the running chain, if it has one.
    var work: Intent?
    var outstanding: Outstanding?
    /// Armed while the running chain waits for this app's process to connect.
    var launchTimer: TimerID?
    /// The end of the launch budget when the launch started before the app connected.
    var launchDeadline: Instant?
    var tasks: [UInt64] = []
    /// The end of the background execution budget, set when the app enters the background.
    var backgroundDeadline: Instant?
    var taskWarningTimer: TimerID?
    var taskExpiryTimer: TimerID?
    var exitGraceTimer: TimerID?
    var footprint: UInt64 = 0

    init(id: AppID) {
        self.id = id
    }
}

/// The one callback an app is running.
struct Outstanding: Sendable {
    var id: CallbackID
    var callback: LifecycleCallback
    var from: LifecycleState
    var to: LifecycleState
    var sent: Instant
    var budget: Duration
    /// The watchdog; `nil` once it fired while the watchdog only observes.
    var timer: TimerID?
    var late: Bool
}

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

/// What a timer is for; the payload is the app's index.
enum TimerPurpose: Sendable, Equatable {
    case watchdog(Int)
    case launch(Int)
    case taskWarning(Int)
    case taskExpiry(Int)
    case exitGrace(Int)

    var app: Int {
        switch self {
        case .watchdog(let i), .launch(let i), .taskWarning(let i), .taskExpiry(let i), .exitGrace(let i): i
        }
    }
}

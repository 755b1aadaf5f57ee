import DequeModule
import LifebusLifecycle

/// The simulated iOS device: the apps and their life-cycle states, the foreground app, the lock, the
/// on-screen alert and the phone call, background tasks, memory pressure and the watchdog.
///
/// A pure value: it performs no I/O and never reads a clock. Every input arrives with its instant, and
/// everything the device wants done leaves as `Action` values the caller performs, in order (callbacks to
/// send, processes to start or kill, transitions to journal, events to answer).
/// Its timers it keeps itself (`TimerQueue`): the caller asks for `earliestDeadline` after each input and, once
/// that instant has come, gives `Input.deadlineReached` (one due timer per input).
/// It is not bound to a thread; its owner serialises the calls (the broker calls it on its event loop).
///
/// Behaviour is specified row by row in `Protocol/lifecycle.md`. Invariants it keeps:
/// - controller events run one at a time, in arrival order; an event's answer (`completeEvent` or
///   `reject`) comes once every callback it caused is answered or its app is gone;
/// - at most one app is `active` or `inactive`; at most one callback per app is outstanding;
/// - every callback sent is answered, or its app is killed (watchdog) or gone (crashed);
/// - every armed timer belongs to an app that is connected or being waited for, but those that wait for the app
///   whatever its process (a pending `BGTask`'s earliest begin date, the silent-push rate window) and the device's
///   own (the protected-data lock);
/// - and the record-level ones `checkInvariants()` lists, asserted after every input in debug builds.
///
/// Wrong client input returns `.reject`, never a trap; only a broken invariant of the device's own traps.
public struct Device: Sendable {
    public let configuration: DeviceConfiguration

    var apps: [AppRecord] = []
    var index: [AppID: Int] = [:]
    /// The app that owns the screen (foreground, or behind the lock), by index into `apps`.
    var front: Int?
    var locked = false
    /// Whether protected data is readable (`false` from `protectedDataLockDelay` after a lock until the wake).
    var protectedDataAvailable = true
    /// Armed from a lock under a profile with data protection until protected data becomes unavailable.
    var protectedDataLock: TimerID?
    /// How many `processing` `BGTask`s run (their launch handler called, not completed): only then does the user's
    /// return look for them to expire.
    var runningProcessingTasks = 0
    /// The device's power and network (`fire power`, `fire network`), from `configuration.conditions`.
    var conditions: DeviceConditions
    /// The SMS or calendar alert on screen (a ringing call is `phoneCall`).
    var alertOnScreen: AlertKind?
    var phoneCall = PhoneCall.idle
    var lastCriticalWarning: Instant?
    var queue = Deque<QueuedWork>()
    var activity = Activity.idle
    var unanswered: Set<EventID> = []
    /// The armed timers, in the order they fall due; each is held by its app's record too.
    var timers = TimerQueue()
    var lastCallbackID: UInt64 = 0
    /// The current input's instant (never earlier than a previous one).
    var now = Instant.zero
    /// The caller's action buffer while an input is handled.
    var out: [Action] = []
    /// The last finished chain's works, emptied, for the next chain to fill: a chain then allocates nothing once
    /// one as long has run. Holds no works; its room is at most the longest chain's.
    var spareWorks: [Work] = []
    /// Inputs left before debug builds check the invariants again (`checkInvariantsWhenDue`).
    var invariantCheckCountdown = 0

    public init(configuration: DeviceConfiguration = DeviceConfiguration()) {
        self.configuration = configuration
        conditions = configuration.conditions
    }

    /// Handles one input that happened at `now` and returns the actions to perform, in order.
    /// An instant earlier than a previous input's is taken as that previous instant.
    public mutating func handle(_ input: Input, at now: Instant) -> [Action] {
        var actions: [Action] = []
        handle(input, at: now, into: &actions)
        return actions
    }

    /// As `handle(_:at:)`, appending to a caller-owned buffer (no allocation once it has grown).
    public mutating func handle(_ input: Input, at now: Instant, into actions: inout [Action]) {
        swap(&out, &actions)
        defer { swap(&out, &actions) }
        if now > self.now {
            self.now = now
        }
        switch input {
        case .fire(let id, let event):
            enqueue(id, event)
        case .appConnected(let app, let flags, let pid):
            connect(app, flags: flags, pid: pid)
        case .appDisconnected(let app):
            processEnded(app)
        case .appDroppedForOutput(let app):
            processEnded(app, outcome: .disconnected)
        case .processExited(let app, _):
            processEnded(app)
        case .launchFailed(let app):
            failLaunch(app)
        case .memoryLimitExceeded(let app):
            killOverLimit(app)
        case .callbackAnswered(
            let app, let id, let handlerDuration, let handlerFailed, let restoration, let result, let presentation):
            if let result, let i = index[app] {
                apps[i].pushes.result = result  // read by the push's answer (`pushAnswered`)
            }
            if let presentation, let i = index[app], apps[i].pushes.presentingNow != nil {
                apps[i].pushes.presentation = presentation  // read by the answer (`presentationAnswered`)
            }
            answer(app, id, handlerDuration: handlerDuration, handlerFailed: handlerFailed, restoration: restoration)
        case .deadlineReached:
            deadlineReached()
        case .backgroundTaskBegan(let app, let task):
            beginBackgroundTask(app, task)
        case .backgroundTaskEnded(let app, let task):
            endBackgroundTask(app, task)
        case .memoryFootprint(let app, let bytes):
            reportFootprint(app, bytes)
        case .registerBackgroundTask(let app, let identifier):
            registerTask(app, identifier)
        case .submitBackgroundTask(let app, let request):
            submitTask(app, request)
        case .backgroundTaskCompleted(let app, let identifier, let success):
            completeTask(app, identifier, success: success)
        }
        advance()
        assert(checkInvariantsWhenDue(), "broken after \(input): \(invariantViolations)")
    }

    // MARK: Inputs that are not controller events

    private mutating func enqueue(_ id: EventID, _ event: ControllerEvent) {
        guard unanswered.insert(id).inserted else {
            out.append(.reject(Rejection(event: id, reason: .duplicateEvent)))
            return
        }
        queue.append(.event(id, event, fired: now))
    }

    private mutating func connect(_ app: AppID, flags: AppFlags, pid: Int32?) {
        let i = record(for: app)
        guard apps[i].process == .none else {
            out.append(.reject(Rejection(app: app, reason: .alreadyConnected)))
            return
        }
        guard !flags.adoptsScenes || configuration.profile.sceneSupport != .none else {
            out.append(.reject(Rejection(app: app, reason: .scenesUnsupported)))  // S31
            return
        }
        apps[i].process = .connected
        apps[i].flags = flags
        apps[i].pid = pid
        apps[i].footprint = 0
        if let timer = apps[i].launch?.timer {
            // A chain is waiting for this app: its launch continues now, within what is left of its budget.
            cancelTimer(timer)
            apps[i].launch?.timer = nil
            step(i)
        } else {
            queue.append(.connected(i))
        }
    }

    /// The app's process or connection ended unasked: its outstanding callback (or its end) is journaled
    /// `outcome` (`crashed`, or `disconnected` when the broker dropped it for its output).
    private mutating func processEnded(_ app: AppID, outcome: TransitionOutcome = .crashed) {
        guard let i = index[app] else {
            out.append(.reject(Rejection(app: app, reason: .unknownApp)))
            return
        }
        switch apps[i].process {
        case .none:
            return  // the other half of disconnect + exit: already handled
        case .exiting, .killed:
            leaveProcess(i, as: .none)
            // After `willTerminate` (or a kill) the pushes due meanwhile are lost with it, as at any end.
            pushesEnded(i)
        case .connected:
            if apps[i].state == .notRunning && apps[i].outstanding == nil {
                apps[i].process = .none  // connected but never launched: nothing to record
            } else {
                end(i, kill: nil, outcome: outcome, cause: nil)
            }
        }
    }

    private mutating func reportFootprint(_ app: AppID, _ bytes: UInt64) {
        guard let i = index[app] else {
            out.append(.reject(Rejection(app: app, reason: .unknownApp)))
            return
        }
        guard apps[i].process == .connected else {
            out.append(.reject(Rejection(app: app, reason: .appNotRunning)))
            return
        }
        apps[i].footprint = bytes
    }

    /// The index of `app`'s record, created (not running, not connected) on first mention.
    mutating func record(for app: AppID) -> Int {
        if let i = index[app] {
            return i
        }
        apps.append(AppRecord(id: app))
        index[app] = apps.count - 1
        return apps.count - 1
    }
}

public import LifebusLifecycle

/// The journal entry for one callback (or, with `callback == nil`, for an app that ended without one:
/// killed without notice or crashed while idle).
///
/// `from` is the state before the callback was sent; `to` the state the app ended in (`notRunning`
/// unless the outcome is `ok` or `late`). Two records without a callback are not endings: the suspension
/// (`background → suspended`, `ok`) and the kill of a process that outlived its exit grace
/// (`notRunning → notRunning`, `killed`).
public struct Transition: Sendable, Hashable {
    public var app: AppID
    public var callback: LifecycleCallback?
    /// The app's process id as the core held it when the transition was recorded (the kernel's, for its last
    /// connection); 0 when none was ever known. (Stored here, beside one-byte fields, it makes the value no larger.)
    public var pid: Int32
    /// The controller event that caused it; `nil` for connections, crashes and background-task expiry.
    public var cause: EventID?
    public var from: LifecycleState
    public var to: LifecycleState
    /// When the cause event fired.
    public var fired: Instant?
    /// When the callback was sent (for `callback == nil`: when the app ended).
    public var sent: Instant
    public var answered: Instant?
    public var handlerDuration: Duration?
    public var budget: Duration
    public var outcome: TransitionOutcome
    /// The app answered but said its handler failed.
    public var handlerFailed: Bool
    /// A scene callback's scene and its move; `nil` for an app-delegate callback (`from`/`to` are the app's
    /// aggregate states either way).
    public var scene: SceneTransition?

    public init(
        app: AppID, callback: LifecycleCallback?, cause: EventID?, from: LifecycleState, to: LifecycleState,
        fired: Instant?, sent: Instant, answered: Instant?, handlerDuration: Duration?, budget: Duration,
        outcome: TransitionOutcome, handlerFailed: Bool = false, pid: Int32 = 0, scene: SceneTransition? = nil
    ) {
        self.app = app
        self.callback = callback
        self.cause = cause
        self.from = from
        self.to = to
        self.fired = fired
        self.sent = sent
        self.answered = answered
        self.handlerDuration = handlerDuration
        self.budget = budget
        self.outcome = outcome
        self.handlerFailed = handlerFailed
        self.pid = pid
        self.scene = scene
    }
}

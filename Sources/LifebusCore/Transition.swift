public import LifebusLifecycle

/// The journal entry for one callback (or, with `callback == nil`, for an app that ended without one:
/// killed without notice or crashed while idle).
///
/// `from` is the state before the callback was sent; `to` the state the app ended in (`notRunning`
/// unless the outcome is `ok` or `late`). Two records without a callback are not endings: the suspension
/// (`background → suspended`, `ok`) and the kill of a process that outlived its exit grace
/// (`notRunning → notRunning`, `killed`).
public struct Transition: Sendable, Hashable {
    // Stored in this order so the one-byte fields fill the padding after the optionals (the value is 113 bytes, and
    // with it `Action`, which every input's actions are moved through: declared in reading order, it was 126).
    public var app: AppID
    /// When the callback was sent (for `callback == nil`: when the app ended).
    public var sent: Instant
    public var budget: Duration
    public var handlerDuration: Duration?
    public var callback: LifecycleCallback?
    public var from: LifecycleState
    public var to: LifecycleState
    public var outcome: TransitionOutcome
    /// The app answered but said its handler failed.
    public var handlerFailed: Bool
    /// The app's process id as the core held it when the transition was recorded (the kernel's, for its last
    /// connection); 0 when none was ever known.
    public var pid: Int32
    /// A scene callback's scene and its move; `nil` for an app-delegate callback (`from`/`to` are the app's
    /// aggregate states either way).
    public var scene: SceneTransition?
    /// When the cause event fired.
    public var fired: Instant?
    public var answered: Instant?
    /// The controller event that caused it; `nil` for connections, crashes and background-task expiry.
    public var cause: EventID?

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

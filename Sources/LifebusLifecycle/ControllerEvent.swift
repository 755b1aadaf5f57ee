/// What the controller asks the device to do (the `lifebus fire` interruptions), in the device's terms: a `FireEvent`
/// with its action, app and level says the same with the wire's and the command line's spellings (`sms --reply` is
/// `.sms(.open)`); `init(_:action:app:level:byUser:)` maps one to the other.
public enum ControllerEvent: Sendable, Hashable {
    case call(CallAction)
    case sms(AlertAction)
    case calendar(AlertAction)
    /// The sleep/wake button locks the device.
    case sleep
    /// Unlocks the device.
    case wake
    case home
    /// Start APP if it is not running, else bring it to the front. `options` (a cold start's URL or tapped
    /// notification) reach a scene app's connecting scene (`willConnectTo`), or a running one's foreground scene
    /// (`openURLContexts`); `nil` for a plain launch (what the app-delegate lifecycle knows).
    case launch(AppID, options: SceneConnectionOptions? = nil)
    /// Bring a running APP to the front.
    case activate(AppID)
    case memoryWarning(MemoryWarningLevel)
    case terminate(AppID, byUser: Bool)
    /// One scene of a scene app: open, close, reclaim, reconnect, focus.
    case scene(SceneEvent)
    /// A `BGTaskScheduler` task of APP named by its identifier: `run` the submitted request now (launching the app
    /// into the background if it is not running), or `cancel` a running continued-processing task.
    case backgroundTask(AppID, identifier: String, action: BackgroundTaskAction)
    /// A remote notification to APP: a silent one is delivered through `didReceiveRemoteNotification` (launching the
    /// app into the background if it is not running); a visible one reaches the app only when tapped, or, in the
    /// foreground, through `willPresentNotification` (`ios13`+).
    case push(AppID, PushNotification)
    /// The device is plugged in or runs on its battery.
    case power(PowerSource)
    /// The device goes online or offline.
    case network(NetworkState)
    /// Back to a fresh device: no call, no alert, unlocked; apps without a process are forgotten; the front app
    /// (if any) goes where a fresh device puts it (`active`).
    case reset
}

/// A phone call's progress as the controller drives it. The raw value is the wire spelling.
public enum CallAction: String, Sendable, Hashable, CaseIterable {
    /// An incoming call starts ringing.
    case ring
    case answer
    case decline
    /// The call in progress ends; while ringing, the caller hangs up (as `decline`).
    case end
}

/// An SMS or calendar alert's progress.
public enum AlertAction: String, Sendable, Hashable, CaseIterable {
    /// The alert appears on screen.
    case show
    /// The notification is a banner: no alert, no transition.
    case banner
    /// `sms --reply` / `calendar --view`: Messages or Calendar opens and the front app leaves.
    case open
    case dismiss
}

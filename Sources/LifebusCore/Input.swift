/// What the controller asks the device to do (the `lifebus` command line's interruptions).
public enum ControllerEvent: Sendable, Hashable {
    case call(CallAction)
    case sms(AlertAction)
    case calendar(AlertAction)
    /// The sleep/wake button locks the device.
    case sleep
    /// Unlocks the device.
    case wake
    case home
    /// Start APP if it is not running, else bring it to the front.
    case launch(AppID)
    /// Bring a running APP to the front.
    case activate(AppID)
    case memoryWarning(MemoryLevel)
    case terminate(AppID, byUser: Bool)
    /// Back to a fresh device: no call, no alert, unlocked; apps without a process are forgotten; the front app
    /// (if any) goes where a fresh device puts it (`active`).
    case reset
}

/// A phone call's progress as the controller drives it.
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

public enum MemoryLevel: String, Sendable, Hashable, CaseIterable {
    case normal
    case critical
}

/// How an app's process ended.
public enum ExitStatus: Sendable, Hashable {
    case exited(Int32)
    case signaled(Int32)
}

/// One thing that happened to the device, given to `Device.handle(_:at:)` with the instant it happened.
public enum Input: Sendable, Hashable {
    /// A controller event, numbered by the caller.
    case fire(EventID, ControllerEvent)
    /// An app connected: its process is running and will answer callbacks. Connecting is launching.
    case appConnected(AppID, AppFlags, pid: Int32?)
    case appDisconnected(AppID)
    case processExited(AppID, ExitStatus)
    /// The app's delegate method returned; `handlerDuration` is the app's own measurement, if it reports one;
    /// `handlerFailed` when the app says its handler failed (it is journaled, the lifecycle goes on).
    case callbackAnswered(AppID, CallbackID, handlerDuration: Duration?, handlerFailed: Bool = false)
    case timerFired(TimerID)
    case backgroundTaskBegan(AppID, taskID: UInt64)
    case backgroundTaskEnded(AppID, taskID: UInt64)
    case memoryFootprint(AppID, bytes: UInt64)
}

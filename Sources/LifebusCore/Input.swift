public import LifebusLifecycle

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
    /// The broker ended the app's connection because the app did not read its output: as `appDisconnected`, but
    /// the ending is journaled `disconnected`, not `crashed`.
    case appDroppedForOutput(AppID)
    case processExited(AppID, ExitStatus)
    /// The caller could not start the process a `startProcess` asked for: the launch waiting for it fails now.
    case launchFailed(AppID)
    /// The app's resident memory went over its own limit: it is killed without notice (`jetsam`), even in front.
    case memoryLimitExceeded(AppID)
    /// The app's delegate method returned; `handlerDuration` is the app's own measurement, if it reports one;
    /// `handlerFailed` when the app says its handler failed (it is journaled, the lifecycle goes on).
    /// `restoration` is the answer's restoration payload (JSON text): kept with the session for
    /// `stateRestorationActivity`, ignored for every other callback. `fetchResult` is a silent push's completion
    /// handler's value (`didReceiveRemoteNotification`), and `presentation` a visible notification's presentation
    /// options (`willPresentNotification`; `nil` counts as none), each ignored for every other callback.
    case callbackAnswered(
        AppID, CallbackID, handlerDuration: Duration?, handlerFailed: Bool = false, restoration: String? = nil,
        fetchResult: BackgroundFetchResult? = nil, presentation: NotificationPresentationOptions? = nil)
    /// The device's earliest deadline (`Device.earliestDeadline`) has come: the timer due first fires (of several
    /// due at one deadline, the one armed first). Given once per due timer, at an instant at or after its deadline;
    /// with no timer due at the input's instant it is refused `unknownTimer`.
    case deadlineReached
    case backgroundTaskBegan(AppID, taskID: UInt64)
    case backgroundTaskEnded(AppID, taskID: UInt64)
    case memoryFootprint(AppID, bytes: UInt64)
    /// `BGTaskScheduler.register(forTaskWithIdentifier:…)`: refused `registrationClosed` once `didFinishLaunching`
    /// is answered, `taskNotPermitted` for an identifier not in the app's `permittedTaskIdentifiers`.
    case registerBackgroundTask(AppID, identifier: String)
    /// `BGTaskScheduler.submit(_:)`: a pending task (replacing a pending one of the same identifier). Boxed
    /// (`indirect`): the inputs of the app-delegate lifecycle stay as small as before.
    indirect case submitBackgroundTask(AppID, BackgroundTaskRequest)
    /// `BGTask.setTaskCompleted(success:)` of the running task `identifier`.
    case backgroundTaskCompleted(AppID, identifier: String, success: Bool)
}

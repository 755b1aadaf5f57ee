/// The kind of a `BGTaskScheduler` request, which sets its budget and what ends it. The raw value is the wire
/// spelling.
public enum BackgroundTaskKind: String, Sendable, Hashable, CaseIterable {
    /// `BGAppRefreshTaskRequest`: run at or after its earliest begin date, with `Profile.appRefreshBudget` (30 s) to
    /// complete.
    case appRefresh
    /// `BGProcessingTaskRequest`: runs while the device is idle; expires when the user comes back to the device.
    case processing
    /// `BGContinuedProcessingTaskRequest` (`ios26`+): started from the foreground by a user action; runs on in the
    /// background until the user cancels it (its expiration handler) or closes the app in the switcher (no
    /// indication).
    case continuedProcessing
}

/// What the controller does to a submitted `BGTask` (`lifebus fire bgtask APP ID [--cancel]`).
public enum BackgroundTaskAction: String, Sendable, Hashable, CaseIterable {
    /// Run the submitted request now (the system picks its time), launching the app into the background if it is
    /// not running.
    case run
    /// The user cancels a running continued-processing task: its expiration handler runs.
    case cancel
}

/// The value a silent push's completion handler is called with (`UIBackgroundFetchResult`). The raw value is the
/// wire spelling (`didReceiveRemoteNotification`'s answer's `result`).
public enum BackgroundFetchResult: String, Sendable, Hashable, CaseIterable {
    case newData
    case noData
    case failed
}

/// Why an app's process was started (`didFinishLaunching`'s `launchReason`). The raw value is the wire spelling.
public enum LaunchReason: String, Sendable, Hashable, CaseIterable {
    /// The user (or the controller for it) launched the app: it comes to the front.
    case user
    /// A `BGTask` is due: launched into the background, no scene connected, no `willEnterForeground`.
    case backgroundTask
    /// A silent push: launched into the background, no scene connected, no `willEnterForeground`.
    case remoteNotification
}

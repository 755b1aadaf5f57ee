public import LifebusLifecycle

/// The method names of the Lifebus protocol. A namespace of constants; who may call which: `MethodPolicy`.
public enum LifebusMethod {
    /// Introduces the peer; must be the first request on a connection.
    public static let hello = "hello"
    /// Liveness check; answers `PingResult`.
    public static let ping = "ping"
    /// Broker → peer notification carrying an error not tied to a request (e.g. the hello timeout); params are
    /// the error object.
    public static let error = "lifebus.error"

    /// Controller → broker: inject an event (`FireParams` → `FireResult`).
    public static let fire = "fire"
    /// Controller → broker: back to a fresh device without restarting (params none or `{}` → `FireResult`).
    public static let reset = "reset"
    /// Controller, observer → broker: the device and its apps (`StatusParams` → `StatusResult`).
    public static let status = "status"
    /// Controller, observer → broker: answer when an app reaches a state (`WaitParams` → `WaitResult`).
    public static let wait = "wait"
    /// Controller, observer → broker: journal entries (`HistoryParams` → `HistoryResult`).
    public static let history = "history"
    /// Broker → observer notification: a transition completed (params `TransitionRecord`).
    public static let transition = "transition"
    /// App → broker request (`MarkParams` → `{}`), and broker → observer notification (params `MarkRecord`).
    public static let mark = "mark"
    /// App → broker: start a background task (`BackgroundTaskBeginParams` → `BackgroundTaskBeginResult`).
    public static let beginBackgroundTask = "beginBackgroundTask"
    /// App → broker: end a background task (`BackgroundTaskEndParams` → `{}`).
    public static let endBackgroundTask = "endBackgroundTask"
    /// App → broker: the app's memory footprint (`ReportMemoryParams` → `{}`).
    public static let reportMemory = "reportMemory"
    /// Controller → broker: install an app from a manifest (`InstallParams` → `InstalledApp`).
    public static let install = "install"
    /// Controller → broker: forget an installed app (`{"id"}` → `{}`).
    public static let uninstall = "uninstall"
    /// Controller, observer → broker: the installed apps (none → `AppsResult`).
    public static let apps = "apps"
    /// App → broker: keep an opaque restoration payload for the next launch (`SaveRestorationStateParams` → `{}`).
    public static let saveRestorationState = "saveRestorationState"
    /// Broker → observer notification: a step of a `BGTask` (params `BackgroundTaskRecord`).
    public static let task = "task"
    /// Broker → observer notification: a step of a push's delivery (params `PushDeliveryRecord`).
    public static let push = "push"
    /// Broker → observer notification: a process started, exited, was killed or failed to start (`ProcessRecord`).
    public static let process = "process"
    /// Broker → app notification: a background task's time is up (params `BackgroundTaskExpiringParams`).
    public static let backgroundTaskExpiring = "backgroundTaskExpiring"
    /// App → broker: register a `BGTaskScheduler` identifier's launch handler, before `didFinishLaunching` is
    /// answered (`RegisterBackgroundTaskParams` → `{}`).
    public static let registerBackgroundTask = "registerBackgroundTask"
    /// App → broker: ask for a registered task to run later (`SubmitBackgroundTaskParams` → `{}`).
    public static let submitBackgroundTask = "submitBackgroundTask"
    /// App → broker: the running task of an identifier is done (`SetTaskCompletedParams` → `{}`).
    public static let setTaskCompleted = "setTaskCompleted"
    /// Broker → app notification: protected data became available or unavailable (params `ProtectedDataParams`).
    public static let protectedDataChanged = "protectedDataChanged"
    /// Controller, observer → broker: whether protected data is available (none → `ProtectedDataParams`).
    public static let protectedData = "protectedData"
    /// Controller → broker, manual clock only: move virtual time on (`AdvanceParams` → `ClockResult`).
    public static let advance = "advance"
    /// Controller, observer → broker: the clock's kind and time (params none or `{}` → `ClockResult`).
    public static let clock = "clock"

    /// The method of the broker → app request delivering `callback` (`CallbackParams` → `CallbackAnswer`): the
    /// callback's own name, e.g. `didEnterBackground`.
    public static func callback(_ callback: LifecycleCallback) -> String { callback.rawValue }
}

/// Why an app's process is killed: the one vocabulary of the device that orders a kill, the broker that journals it
/// (a `process` record `killed`, then `exited` with the same reason) and the supervisor that sends the signal. The raw
/// value is the wire spelling (`process.record`'s `reason`, `launch-context`'s `previousEnding`).
public enum KillReason: String, Sendable, Hashable, CaseIterable {
    /// A callback, a background task or a launch overran its budget (iOS: `0x8badf00d`).
    case watchdog
    /// A background task not ended in time: a `beginBackgroundTask` still open when the background time runs out,
    /// or a `BGTask` neither completed nor expired within its budget (iOS: "failure to end the task explicitly
    /// will result in the termination of the app").
    case backgroundTaskExpired
    /// Memory pressure: a suspended app killed silently at critical pressure, or one over its manifest's
    /// `memoryLimit` (the device kills both as jetsam does).
    case jetsam
    /// The pressure policy's plan for an app over its manifest's `memoryLimit`; the device kills it as `jetsam`.
    case memoryLimit
    /// Swiped away in the app switcher (`terminate --by-user`).
    case user
    /// Terminated by the system without a callback (a suspended app, a process lingering after `willTerminate`).
    case system
    /// The app does not adopt scenes under a profile that requires them (`ios27`): UIKit's assert at launch.
    case sceneLifecycleRequired
    /// The broker is stopping: nothing it spawned may outlive it.
    case shutdown
}

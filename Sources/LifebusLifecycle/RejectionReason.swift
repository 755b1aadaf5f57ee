/// Why the device refused an input. The raw value is the wire spelling: the `reason` of a `lifebus.EventRejected`
/// error (`fire`, `hello`).
public enum RejectionReason: String, Sendable, Hashable, CaseIterable {
    case duplicateEvent
    case unknownApp
    case appNotRunning
    case appSuspended
    case alreadyConnected
    case unexpectedAnswer
    case unknownTimer
    case deviceLocked
    case noRingingCall
    case noCall
    case callAlreadyActive
    case noSuchAlert
    case launchTimedOut
    /// The broker could not start the app's process (`lifebus.LaunchFailed` carries the path and errno).
    case launchFailed
    case backgroundTasksUnavailable
    case backgroundTimeExpired
    case duplicateTask
    /// No such task: no open background task with this number, no submitted or running `BGTask` with this
    /// identifier.
    case unknownTask
    /// A `BGTaskScheduler` registration after `didFinishLaunching` was answered (launch handlers are registered
    /// before launch finishes).
    case registrationClosed
    /// A `BGTask` identifier not in the app's `BGTaskSchedulerPermittedIdentifiers`
    /// (`AppFlags.permittedTaskIdentifiers`), or submitted without a registered launch handler.
    case taskNotPermitted
    /// A continued-processing task submitted while the app is not in the foreground (it starts from a user action).
    case taskRequiresForeground
    /// A `BGTaskScheduler` request beyond the pending limit of its kind: 1 `appRefresh`, 10 `processing` per app
    /// (`BGTaskScheduler.Error.Code.tooManyPendingTaskRequests`).
    case tooManyPendingTaskRequests
    /// A launch of an app that does not adopt scenes under a profile that requires them (`ios27`): it fails.
    case sceneLifecycleRequired
    /// An app that adopts scenes connected under a profile without scenes (`ios3`, `ios4`, `ios7`).
    case scenesUnsupported
    /// A scene event for an app that does not adopt scenes.
    case appDoesNotAdoptScenes
    /// A second scene for an app that does not support multiple scenes.
    case multipleScenesUnsupported
    /// No such scene is connected.
    case unknownScene
    /// No such session exists (never made, or discarded).
    case unknownSession
    /// The session already has a connected scene.
    case sessionConnected
    /// The scene is in the foreground (`reclaim` takes a background scene).
    case sceneInForeground
    /// The scene is not in the foreground (`focus` takes a foreground scene).
    case sceneNotInForeground
}

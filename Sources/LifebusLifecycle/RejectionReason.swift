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
    case unknownTask
}

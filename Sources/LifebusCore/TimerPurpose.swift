/// What a timer is for; the payload is the app's index (none for the device's own timers).
enum TimerPurpose: Sendable, Equatable {
    case watchdog(Int)
    case launch(Int)
    case taskWarning(Int)
    case taskExpiry(Int)
    case exitGrace(Int)
    /// A pending `BGTask` of the app reaches its earliest begin date.
    case scheduledTaskDue(Int)
    /// A running `BGTask` of the app reaches the time of its expiration handler.
    case scheduledTaskWarning(Int)
    /// A running `BGTask` of the app is neither completed nor expired in time: the app is killed.
    case scheduledTaskExpiry(Int)
    /// The app's silent-push rate window allows its next deferred push.
    case pushWindow(Int)
    /// Protected data becomes unavailable, `Profile.protectedDataLockDelay` after the lock.
    case protectedDataLock

    /// The app the timer belongs to; `nil` for the device's own.
    var app: Int? {
        switch self {
        case .watchdog(let i), .launch(let i), .taskWarning(let i), .taskExpiry(let i), .exitGrace(let i),
            .scheduledTaskDue(let i), .scheduledTaskWarning(let i), .scheduledTaskExpiry(let i), .pushWindow(let i):
            i
        case .protectedDataLock:
            nil
        }
    }
}

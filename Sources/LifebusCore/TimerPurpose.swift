/// What a timer is for; the payload is the app's index.
enum TimerPurpose: Sendable, Equatable {
    case watchdog(Int)
    case launch(Int)
    case taskWarning(Int)
    case taskExpiry(Int)
    case exitGrace(Int)

    var app: Int {
        switch self {
        case .watchdog(let i), .launch(let i), .taskWarning(let i), .taskExpiry(let i), .exitGrace(let i): i
        }
    }
}

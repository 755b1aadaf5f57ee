import LifebusCore
import LifebusProtocol

/// Translations between the core's vocabulary and the wire's. The two spell states, callbacks and outcomes alike;
/// the mapping is spelled out case by case (not through raw strings) because it runs for every record.
extension AppState {
    var wire: LifecycleState {
        switch self {
        case .notRunning: .notRunning
        case .inactive: .inactive
        case .active: .active
        case .background: .background
        case .suspended: .suspended
        }
    }
}

extension Callback {
    var wire: LifecycleCallback {
        switch self {
        case .didFinishLaunching: .didFinishLaunching
        case .didBecomeActive: .didBecomeActive
        case .willResignActive: .willResignActive
        case .didEnterBackground: .didEnterBackground
        case .willEnterForeground: .willEnterForeground
        case .willTerminate: .willTerminate
        case .didReceiveMemoryWarning: .didReceiveMemoryWarning
        }
    }
}

extension Outcome {
    var wire: TransitionOutcome {
        switch self {
        case .ok: .ok
        case .late: .late
        case .watchdog: .watchdog
        case .crashed: .crashed
        case .killed: .killed
        case .jetsam: .jetsam
        }
    }
}

extension LifecycleState {
    var core: AppState {
        switch self {
        case .notRunning: .notRunning
        case .inactive: .inactive
        case .active: .active
        case .background: .background
        case .suspended: .suspended
        }
    }
}

extension FireParams {
    /// The core's event for these (already validated) params.
    var controllerEvent: ControllerEvent {
        let app = AppID(app ?? "")
        switch event {
        case .call:
            return .call(CallAction(rawValue: resolvedAction?.rawValue ?? "ring") ?? .ring)
        case .sms:
            return .sms(alertAction)
        case .calendar:
            return .calendar(alertAction)
        case .sleep:
            return .sleep
        case .wake:
            return .wake
        case .home:
            return .home
        case .launch:
            return .launch(app)
        case .activate:
            return .activate(app)
        case .memoryWarning:
            return .memoryWarning(resolvedLevel == .critical ? .critical : .normal)
        case .terminate:
            return .terminate(app, byUser: byUser)
        }
    }

    private var alertAction: AlertAction {
        switch resolvedAction {
        case .banner: .banner
        case .reply, .view: .open
        case .dismiss: .dismiss
        default: .show
        }
    }
}

extension CallStatus {
    var wire: StatusResult.CallState {
        switch self {
        case .idle: .none
        case .ringing: .ringing
        case .inProgress: .inProgress
        }
    }
}

extension Alert {
    /// The alert a status shows: a ringing call is reported through `call`, not here.
    var wire: StatusResult.Alert? {
        switch self {
        case .call: nil
        case .sms: .sms
        case .calendar: .calendar
        }
    }
}

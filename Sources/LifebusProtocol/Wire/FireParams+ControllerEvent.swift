public import LifebusLifecycle

/// The device's event for `fire` params: the command line's spellings become the device's (`sms --reply` and
/// `calendar --view` open the app they name: `.open`).
extension FireParams {
    /// The event these params ask for; the params must be valid (`validate()`, which `init(json:)` runs).
    public var controllerEvent: ControllerEvent {
        switch event {
        case .call:
            return .call(callAction)
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
            return .launch(appID)
        case .activate:
            return .activate(appID)
        case .memoryWarning:
            return .memoryWarning(resolvedLevel ?? .warning)
        case .terminate:
            return .terminate(appID, byUser: byUser)
        }
    }

    /// The named app's id, made only for the events that name one (an `AppID` hashes its name when it is made).
    private var appID: AppID { AppID(app ?? "") }

    private var callAction: CallAction {
        switch resolvedAction {
        case .answer: .answer
        case .decline: .decline
        case .end: .end
        default: .ring
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

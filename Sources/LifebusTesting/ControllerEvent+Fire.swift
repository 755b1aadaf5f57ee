import LifebusLifecycle
import LifebusProtocol

/// The wire's `fire` params for a device event: the inverse of `FireParams.controllerEvent`, so a test names an
/// event in the device's terms (`.call(.answer)`) and either transport receives the broker's own request.
extension ControllerEvent {
    /// The params of the `fire` request for this event (answered once the device has settled); `nil` for `.reset`,
    /// which is a request of its own.
    var fireParams: FireParams? {
        switch self {
        case .call(let action):
            FireParams(event: .call, action: FireParams.Action(rawValue: action.rawValue))
        case .sms(let action):
            FireParams(event: .sms, action: Self.wire(action, opening: .reply))
        case .calendar(let action):
            FireParams(event: .calendar, action: Self.wire(action, opening: .view))
        case .sleep: FireParams(event: .sleep)
        case .wake: FireParams(event: .wake)
        case .home: FireParams(event: .home)
        case .launch(let app): FireParams(event: .launch, app: app.rawValue)
        case .activate(let app): FireParams(event: .activate, app: app.rawValue)
        case .memoryWarning(let level): FireParams(event: .memoryWarning, level: level)
        case .terminate(let app, let byUser): FireParams(event: .terminate, app: app.rawValue, byUser: byUser)
        case .reset: nil
        }
    }

    private static func wire(_ action: AlertAction, opening: FireParams.Action) -> FireParams.Action {
        switch action {
        case .show: .show
        case .banner: .banner
        case .open: opening
        case .dismiss: .dismiss
        }
    }
}

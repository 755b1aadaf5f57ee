/// What the controller asks the device to do (the `lifebus fire` interruptions), in the device's terms: a `FireEvent`
/// with its action, app and level says the same with the wire's and the command line's spellings (`sms --reply` is
/// `.sms(.open)`); `init(_:action:app:level:byUser:)` maps one to the other.
public enum ControllerEvent: Sendable, Hashable {
    case call(CallAction)
    case sms(AlertAction)
    case calendar(AlertAction)
    /// The sleep/wake button locks the device.
    case sleep
    /// Unlocks the device.
    case wake
    case home
    /// Start APP if it is not running, else bring it to the front.
    case launch(AppID)
    /// Bring a running APP to the front.
    case activate(AppID)
    case memoryWarning(MemoryWarningLevel)
    case terminate(AppID, byUser: Bool)
    /// Back to a fresh device: no call, no alert, unlocked; apps without a process are forgotten; the front app
    /// (if any) goes where a fresh device puts it (`active`).
    case reset
}

/// A phone call's progress as the controller drives it. The raw value is the wire spelling.
public enum CallAction: String, Sendable, Hashable, CaseIterable {
    /// An incoming call starts ringing.
    case ring
    case answer
    case decline
    /// The call in progress ends; while ringing, the caller hangs up (as `decline`).
    case end
}

/// An SMS or calendar alert's progress.
public enum AlertAction: String, Sendable, Hashable, CaseIterable {
    /// The alert appears on screen.
    case show
    /// The notification is a banner: no alert, no transition.
    case banner
    /// `sms --reply` / `calendar --view`: Messages or Calendar opens and the front app leaves.
    case open
    case dismiss
}

extension ControllerEvent {
    /// The device's event for a fired event with its details, defaults applied (the first action, `warning`);
    /// `nil` when the details break `event.declaration`: an action or level it does not take, `byUser` where it
    /// is not taken, an app missing or given where none is taken.
    public init?(
        _ event: FireEvent, action: FireAction? = nil, app: AppID? = nil, level: MemoryWarningLevel? = nil,
        byUser: Bool = false
    ) {
        let declaration = event.declaration
        guard action.map(declaration.actions.contains) ?? true, level.map(declaration.levels.contains) ?? true,
            !byUser || declaration.takesByUser, (app != nil) == (declaration.target == .app)
        else { return nil }
        let action = action ?? declaration.actions.first
        switch event {
        case .call:
            guard let call = action?.callAction else { return nil }
            self = .call(call)
        case .sms:
            guard let alert = action?.alertAction else { return nil }
            self = .sms(alert)
        case .calendar:
            guard let alert = action?.alertAction else { return nil }
            self = .calendar(alert)
        case .sleep: self = .sleep
        case .wake: self = .wake
        case .home: self = .home
        case .launch:
            guard let app else { return nil }
            self = .launch(app)
        case .activate:
            guard let app else { return nil }
            self = .activate(app)
        case .memoryWarning:
            guard let level = level ?? declaration.levels.first else { return nil }
            self = .memoryWarning(level)
        case .terminate:
            guard let app else { return nil }
            self = .terminate(app, byUser: byUser)
        }
    }
}

/// A fired event and the device's event, both ways: `FireEvent` with its details (the wire's and the command line's
/// spellings) to `ControllerEvent` (the device's terms), and back. Both follow `FireEvent.declaration`, so an event
/// adds a line to each switch and nothing else here.
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
            !byUser || declaration.takesByUser, (app != nil) == (declaration.target == .app),
            let mapped = Self.mapped(event, action: action, app: app, level: level, byUser: byUser)
        else { return nil }
        self = mapped
    }

    /// The device's event for details already checked against `event.declaration` (`FireParams.validate()` did, on
    /// the broker's fire path): `init(_:action:app:level:byUser:)` without checking them again. Details that break
    /// the declaration are a bug of the code that checked them, and trap.
    public init(
        validated event: FireEvent, action: FireAction?, app: AppID?, level: MemoryWarningLevel?, byUser: Bool
    ) {
        guard let mapped = Self.mapped(event, action: action, app: app, level: level, byUser: byUser) else {
            preconditionFailure("fire details that break \(event.rawValue)'s declaration")
        }
        self = mapped
    }

    /// The mapping itself, defaults applied; `nil` where the details cannot name a device event (an action of the
    /// other kind, no app). Does not check the rest of the declaration.
    private static func mapped(
        _ event: FireEvent, action: FireAction?, app: AppID?, level: MemoryWarningLevel?, byUser: Bool
    ) -> ControllerEvent? {
        switch event {
        case .call:
            (action ?? event.declaration.actions.first)?.callAction.map { .call($0) }
        case .sms:
            (action ?? event.declaration.actions.first)?.alertAction.map { .sms($0) }
        case .calendar:
            (action ?? event.declaration.actions.first)?.alertAction.map { .calendar($0) }
        case .sleep: .sleep
        case .wake: .wake
        case .home: .home
        case .launch: app.map { .launch($0) }
        case .activate: app.map { .activate($0) }
        case .memoryWarning: (level ?? event.declaration.levels.first).map { .memoryWarning($0) }
        case .terminate: app.map { .terminate($0, byUser: byUser) }
        }
    }

    /// A fired event with its details, as `init(_:action:app:level:byUser:)` takes them.
    public struct Fired: Sendable, Hashable {
        public let event: FireEvent
        public let action: FireAction?
        public let app: AppID?
        public let level: MemoryWarningLevel?
        public let byUser: Bool
    }

    /// The fired event that means this one, its action and level given explicitly (the inverse of
    /// `init(_:action:app:level:byUser:)`); `nil` for `reset`, which is a request of its own, and for device events
    /// no fired event asks for (a calendar alert as a banner).
    public var fired: Fired? {
        let event: FireEvent, app: AppID?, byUser: Bool
        switch self {
        case .call: (event, app, byUser) = (.call, nil, false)
        case .sms: (event, app, byUser) = (.sms, nil, false)
        case .calendar: (event, app, byUser) = (.calendar, nil, false)
        case .sleep: (event, app, byUser) = (.sleep, nil, false)
        case .wake: (event, app, byUser) = (.wake, nil, false)
        case .home: (event, app, byUser) = (.home, nil, false)
        case .memoryWarning: (event, app, byUser) = (.memoryWarning, nil, false)
        case .terminate(let target, let user): (event, app, byUser) = (.terminate, target, user)
        case .activate(let target): (event, app, byUser) = (.activate, target, false)
        case .launch(let target, _): (event, app, byUser) = (.launch, target, false)
        case .reset, .scene: return nil
        }
        let declaration = event.declaration
        let actions = declaration.actions.isEmpty ? [nil] : declaration.actions.map(Optional.some)
        let levels = declaration.levels.isEmpty ? [nil] : declaration.levels.map(Optional.some)
        for action in actions {
            for level in levels where ControllerEvent(event, action: action, app: app, level: level, byUser: byUser)
                == self
            {
                return Fired(event: event, action: action, app: app, level: level, byUser: byUser)
            }
        }
        return nil
    }
}

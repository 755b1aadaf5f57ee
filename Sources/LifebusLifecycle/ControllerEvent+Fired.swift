/// A fired event and the device's event, both ways: `FireEvent` with its details (the wire's and the command line's
/// spellings) to `ControllerEvent` (the device's terms), and back. Both follow `FireEvent.declaration`, so an event
/// adds a line to each switch and nothing else here.
extension ControllerEvent {
    /// The device's event for a fired event with its details, defaults applied (the first action, `warning`);
    /// `nil` when the details break `event.declaration`: an action or level it does not take, `byUser` where it
    /// is not taken, an app missing or given where none is taken, no action where one is required, a scene
    /// action without the scene or session it names, or a `bgtask` without its task's identifier. A `push`'s
    /// `payload` is `{}` when not given.
    public init?(
        _ event: FireEvent, action: FireAction? = nil, app: AppID? = nil, level: MemoryWarningLevel? = nil,
        byUser: Bool = false, scene: SceneID? = nil, session: SceneSessionID? = nil,
        options: SceneConnectionOptions? = nil, identifier: String? = nil, payload: String? = nil
    ) {
        let declaration = event.declaration
        guard action.map(declaration.actions.contains) ?? !declaration.requiresAction,
            level.map(declaration.levels.contains) ?? true,
            !byUser || declaration.takesByUser, (app != nil) == (declaration.target == .app),
            let mapped = Self.mapped(
                event, action: action, app: app, level: level, byUser: byUser, scene: scene, session: session,
                options: options, identifier: identifier, payload: payload)
        else { return nil }
        self = mapped
    }

    /// The device's event for details already checked against `event.declaration` (`FireParams.validate()` did, on
    /// the broker's fire path): `init(_:action:app:level:byUser:scene:session:options:identifier:payload:)` without
    /// checking them again.
    /// Details that break the declaration are a bug of the code that checked them, and trap.
    public init(
        validated event: FireEvent, action: FireAction?, app: AppID?, level: MemoryWarningLevel?, byUser: Bool,
        scene: SceneID? = nil, session: SceneSessionID? = nil, options: SceneConnectionOptions? = nil,
        identifier: String? = nil, payload: String? = nil
    ) {
        guard let mapped = Self.mapped(
            event, action: action, app: app, level: level, byUser: byUser, scene: scene, session: session,
            options: options, identifier: identifier, payload: payload)
        else {
            preconditionFailure("fire details that break \(event.rawValue)'s declaration")
        }
        self = mapped
    }

    /// The mapping itself, defaults applied; `nil` where the details cannot name a device event (an action of the
    /// other kind, no app, a scene action without its scene or session, a `bgtask` without its identifier). Does not
    /// check the rest of the declaration.
    private static func mapped(
        _ event: FireEvent, action: FireAction?, app: AppID?, level: MemoryWarningLevel?, byUser: Bool,
        scene: SceneID?, session: SceneSessionID?, options: SceneConnectionOptions?, identifier: String?,
        payload: String?
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
        case .launch: app.map { .launch($0, options: options) }
        case .activate: app.map { .activate($0) }
        case .memoryWarning: (level ?? event.declaration.levels.first).map { .memoryWarning($0) }
        case .terminate: app.map { .terminate($0, byUser: byUser) }
        case .scene: app.flatMap { sceneEvent($0, action: action, scene: scene, session: session, options: options) }
        case .bgtask:
            if let app, let identifier, let task = (action ?? event.declaration.actions.first)?.backgroundTaskAction {
                .backgroundTask(app, identifier: identifier, action: task)
            } else {
                nil
            }
        case .push:
            switch (app, action ?? event.declaration.actions.first) {
            case (let app?, .silent?):
                .push(app, PushNotification(contentAvailable: true, alert: false, payload: payload ?? "{}"))
            case (let app?, .alert?):
                .push(app, PushNotification(contentAvailable: false, alert: true, payload: payload ?? "{}"))
            case (let app?, .tap?):
                .push(app, PushNotification(
                    contentAvailable: false, alert: true, payload: payload ?? "{}", tapped: true))
            default: nil
            }
        case .power: action?.powerSource.map { .power($0) }
        case .network: action?.networkState.map { .network($0) }
        }
    }

    /// A scene action's device event; `nil` without the scene (`reclaim`, `focus`) or session (`reconnect`) it needs.
    private static func sceneEvent(
        _ app: AppID, action: FireAction?, scene: SceneID?, session: SceneSessionID?,
        options: SceneConnectionOptions?
    ) -> ControllerEvent? {
        switch action {
        case .open: .scene(.open(app, options ?? .none))
        case .close: .scene(.close(app, scene))
        case .reclaim: scene.map { .scene(.reclaim(app, $0)) }
        case .reconnect: session.map { .scene(.reconnect(app, $0)) }
        case .focus: scene.map { .scene(.focus(app, $0)) }
        default: nil
        }
    }

    /// A fired event with its details, as `init(_:action:app:level:byUser:scene:session:options:identifier:payload:)`
    /// takes them.
    public struct Fired: Sendable, Hashable {
        public let event: FireEvent
        public let action: FireAction?
        public let app: AppID?
        public let level: MemoryWarningLevel?
        public let byUser: Bool
        public let scene: SceneID?
        public let session: SceneSessionID?
        /// A launch's or a new scene's connection options (`nil` when none were given).
        public let options: SceneConnectionOptions?
        /// A `bgtask`'s task identifier.
        public let identifier: String?
        /// A `push`'s payload, JSON text.
        public let payload: String?
    }

    /// The fired event that means this one, its action and level given explicitly (the inverse of
    /// `init(_:action:app:level:byUser:scene:session:options:identifier:payload:)`); `nil` for `reset`, which is a
    /// request of its own, and for device events no fired event asks for (a calendar alert as a banner, a push
    /// both silent and visible or neither).
    public var fired: Fired? {
        let event: FireEvent, app: AppID?, byUser: Bool
        var scene: SceneID?, session: SceneSessionID?, options: SceneConnectionOptions?
        var identifier: String?, payload: String?
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
        case .launch(let target, let given):
            (event, app, byUser) = (.launch, target, false)
            options = given
        case .scene(let sceneEvent):
            (event, app, byUser) = (.scene, sceneEvent.app, false)
            switch sceneEvent {
            case .open(_, let given): options = given
            case .close(_, let target): scene = target
            case .reclaim(_, let target), .focus(_, let target): scene = target
            case .reconnect(_, let target): session = target
            }
        case .backgroundTask(let target, let task, _):
            (event, app, byUser) = (.bgtask, target, false)
            identifier = task
        case .push(let target, let notification):
            (event, app, byUser) = (.push, target, false)
            payload = notification.payload
        case .power: (event, app, byUser) = (.power, nil, false)
        case .network: (event, app, byUser) = (.network, nil, false)
        case .reset: return nil
        }
        let declaration = event.declaration
        let actions = declaration.actions.isEmpty ? [nil] : declaration.actions.map(Optional.some)
        let levels = declaration.levels.isEmpty ? [nil] : declaration.levels.map(Optional.some)
        for action in actions {
            for level in levels where ControllerEvent(
                event, action: action, app: app, level: level, byUser: byUser, scene: scene, session: session,
                options: options, identifier: identifier, payload: payload) == self
            {
                return Fired(
                    event: event, action: action, app: app, level: level, byUser: byUser, scene: scene,
                    session: session, options: options, identifier: identifier, payload: payload)
            }
        }
        return nil
    }
}

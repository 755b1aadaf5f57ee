public import LifebusJSON
public import LifebusLifecycle

/// The params of `fire` (controller → broker): one interruption or system event to inject.
///
/// A plain value (`Sendable`). Wire form (the writer emits every member, `null` for the absent ones):
/// `{"event":"call","action":"answer","app":null,"level":null,"byUser":false,"wait":true}`.
/// Invariants enforced by `init(json:)` (each violation is -32602 naming the field):
/// - `action` is one of `event.declaration.actions` (the first is the default when absent), and absent for events
///   without actions;
/// - `app` (a well-formed app id) is required for events whose declaration targets an app (`launch`, `activate`,
///   `terminate`), and absent otherwise;
/// - `level` only for events that take levels (`memory-warning`, default `warning`);
/// - `byUser` may be `true` only for events that take it (`terminate`; `false` is accepted anywhere);
/// - `wait` defaults to `true`: answer once every transition the event caused completed; `false`: answer as soon
///   as the event is accepted;
/// - an event whose declaration requires an action (`scene`) has one;
/// - the scene members (`scene`, `session`, `url`, `activity`, `push`: `FireParams+Scene.swift`) only where their
///   event and action take them, and written only when present; likewise `bgtask`'s `identifier` (required there)
///   and `push`'s `payload`.
/// The memberwise `init` does not check these; `validate()` does (it is what `init(json:)` runs).
public struct FireParams: Sendable, Equatable {
    /// The events a controller can fire (declared in `LifebusLifecycle`, with everything the tables derive).
    public typealias FireEvent = LifebusLifecycle.FireEvent
    /// What happens to an incoming call or alert; which actions an event takes: `event.declaration.actions`.
    public typealias Action = FireAction

    /// `app` and the scene members (`scene`, `session`, `url`, `activity`, `push`: `FireParams+Scene.swift`) in one
    /// reference, `nil` when none is given: the params of an event that names nothing (the hot `fire`) hold no
    /// reference at all. (Beside `app: String?`, a second reference for the scene members made the params be copied
    /// and destroyed through their value witnesses: ~500 instructions more per fire under callgrind.)
    var named: FireNamed?
    public var event: FireEvent
    /// The app the event names (`launch`, `activate`, `terminate`, `scene`).
    public var app: String? {
        get { named?.app }
        set { setNamed(app: .some(newValue)) }
    }
    /// As given; `nil` means the event's first action (see `resolvedAction`).
    public var action: Action?
    /// As given; `nil` means `.warning` for a memory warning (see `resolvedLevel`).
    public var level: MemoryWarningLevel?
    public var byUser: Bool
    public var wait: Bool

    public init(
        event: FireEvent,
        action: Action? = nil,
        app: String? = nil,
        level: MemoryWarningLevel? = nil,
        byUser: Bool = false,
        wait: Bool = true
    ) {
        named = app.map { FireNamed(app: $0) }
        self.event = event
        self.action = action
        self.level = level
        self.byUser = byUser
        self.wait = wait
    }

    /// The params of one of `event`'s declared forms (its action or level given explicitly), naming `app` when the
    /// event targets one (ignored otherwise), and scene 1 or session 1 where a `scene` action needs one.
    public init(_ event: FireEvent, _ detail: FireEvent.Declaration.Detail, app: String, wait: Bool = true) {
        self.init(event: event, app: event.declaration.target == .app ? app : nil, wait: wait)
        switch detail {
        case .plain: break
        case .action(let action): self.action = action
        case .level(let level): self.level = level
        case .byUser: byUser = true
        }
        if event == .scene {
            switch action {
            case .close, .reclaim, .focus: scene = SceneID(1)
            case .reconnect: session = SceneSessionID(1)
            default: break
            }
        }
        if event == .bgtask { identifier = "refresh" }
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        event = try reader.choice("event", as: FireEvent.self)
        action = try reader.optionalChoice("action", as: Action.self)
        let app = event.declaration.target == .app ? try reader.appID("app") : try reader.optionalString("app")
        named = app.map { FireNamed(app: $0) }
        level = try reader.optionalChoice("level", as: MemoryWarningLevel.self)
        byUser = try reader.bool("byUser", default: false)
        wait = try reader.bool("wait", default: true)
        try readSceneMembers(reader)
        try validate()
    }

    /// The action that applies: the given one, else the event's default (`nil` for events without actions).
    public var resolvedAction: Action? { action ?? event.declaration.actions.first }

    /// The memory-warning level that applies (`nil` for events without levels).
    public var resolvedLevel: MemoryWarningLevel? { level ?? event.declaration.levels.first }

    /// Checks the per-event rules of the type's invariants; -32602 naming the offending field.
    public func validate() throws(RPCError) {
        let declaration = event.declaration
        if action == nil, declaration.requiresAction {
            let choices = declaration.actions.map(\.rawValue).joined(separator: ", ")
            throw RPCError.invalidParams(field: "action", "is required for \(event.rawValue): one of \(choices)")
        }
        if let action, !declaration.actions.contains(action) {
            if declaration.actions.isEmpty {
                throw RPCError.invalidParams(field: "action", "is not taken by \(event.rawValue)")
            }
            let choices = declaration.actions.map(\.rawValue).joined(separator: ", ")
            throw RPCError.invalidParams(field: "action", "must be one of \(choices) for \(event.rawValue)")
        }
        if declaration.target == .app {
            guard let app else { throw RPCError.invalidParams(field: "app", "is required for \(event.rawValue)") }
            guard HelloParams.isValidAppID(app) else {
                throw RPCError.invalidParams(
                    field: "app", "must be 1…\(HelloParams.maxAppIDLength) characters from A-Z a-z 0-9 . _ -"
                )
            }
        } else if app != nil {
            throw RPCError.invalidParams(field: "app", "is not taken by \(event.rawValue)")
        }
        if let level, !declaration.levels.contains(level) {
            throw RPCError.invalidParams(field: "level", "is only taken by \(Self.events { !$0.levels.isEmpty })")
        }
        if byUser, !declaration.takesByUser {
            throw RPCError.invalidParams(field: "byUser", "is only taken by \(Self.events(\.takesByUser))")
        }
        if named != nil || event == .scene { try validateSceneMembers() }
    }

    public var json: JSONValue { json(members: .all) }

    /// The events whose declaration passes `test`, as an error message names them (`memory-warning`).
    private static func events(_ test: (FireEvent.Declaration) -> Bool) -> String {
        FireEvent.allCases.filter { test($0.declaration) }.map(\.rawValue).joined(separator: ", ")
    }
}

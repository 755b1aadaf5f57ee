public import LifebusJSON
public import LifebusLifecycle

/// The params of `fire` (controller → broker): one interruption or system event to inject.
///
/// A plain value (`Sendable`). Wire form (the writer emits every member, `null` for the absent ones):
/// `{"event":"call","action":"answer","app":null,"level":null,"byUser":false,"wait":true}`.
/// Invariants enforced by `init(json:)` (each violation is -32602 naming the field):
/// - `action` is one of `event.actions` (the first is the default when absent), and absent for events without
///   actions;
/// - `app` (a well-formed app id) is required for `launch`, `activate` and `terminate`, and absent otherwise;
/// - `level` only for `memory-warning` (default `warning`);
/// - `byUser` may be `true` only for `terminate` (`false` is accepted anywhere);
/// - `wait` defaults to `true`: answer once every transition the event caused completed; `false`: answer as soon
///   as the event is accepted.
/// The memberwise `init` does not check these; `validate()` does (it is what `init(json:)` runs).
public struct FireParams: Sendable, Equatable {
    /// The events a controller can fire; the raw value is the wire (and CLI) spelling.
    public enum FireEvent: String, Sendable, CaseIterable {
        case call
        case sms
        case calendar
        case sleep
        case wake
        case home
        case launch
        case activate
        case memoryWarning = "memory-warning"
        case terminate

        /// The actions this event takes, the default first; empty when it takes none.
        public var actions: [Action] {
            switch self {
            case .call: return [.ring, .answer, .decline, .end]
            case .sms: return [.show, .banner, .reply, .dismiss]
            case .calendar: return [.show, .view, .dismiss]
            case .sleep, .wake, .home, .launch, .activate, .memoryWarning, .terminate: return []
            }
        }

        /// The action used when none is given, for events that take actions.
        public var defaultAction: Action? { actions.first }

        /// Whether the event names its target app (`launch`, `activate`, `terminate`); the others must not.
        public var requiresApp: Bool {
            self == .launch || self == .activate || self == .terminate
        }
    }

    /// What happens to an incoming call or alert. Which actions an event takes: `FireEvent.actions`.
    public enum Action: String, Sendable, CaseIterable {
        /// call: it starts ringing (the default).
        case ring
        /// call: the user answers.
        case answer
        /// call: the user declines.
        case decline
        /// call: the call in progress ends.
        case end
        /// sms, calendar: the alert appears (the default).
        case show
        /// sms: a banner that takes no focus.
        case banner
        /// sms: the user replies (opens Messages).
        case reply
        /// sms, calendar: the user dismisses the alert.
        case dismiss
        /// calendar: the user views the event (opens Calendar).
        case view
    }

    public var event: FireEvent
    /// As given; `nil` means `event.defaultAction` (see `resolvedAction`).
    public var action: Action?
    public var app: String?
    /// As given; `nil` means `.warning` for a memory warning (see `resolvedLevel`).
    public var level: MemoryLevel?
    public var byUser: Bool
    public var wait: Bool

    public init(
        event: FireEvent,
        action: Action? = nil,
        app: String? = nil,
        level: MemoryLevel? = nil,
        byUser: Bool = false,
        wait: Bool = true
    ) {
        self.event = event
        self.action = action
        self.app = app
        self.level = level
        self.byUser = byUser
        self.wait = wait
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        event = try reader.choice("event", as: FireEvent.self)
        action = try reader.optionalChoice("action", as: Action.self)
        app = event.requiresApp ? try reader.appID("app") : try reader.optionalString("app")
        level = try reader.optionalChoice("level", as: MemoryLevel.self)
        byUser = try reader.bool("byUser", default: false)
        wait = try reader.bool("wait", default: true)
        try validate()
    }

    /// The action that applies: the given one, else the event's default (`nil` for events without actions).
    public var resolvedAction: Action? { action ?? event.defaultAction }

    /// The memory-warning level that applies (`nil` for other events).
    public var resolvedLevel: MemoryLevel? { event == .memoryWarning ? level ?? .warning : nil }

    /// Checks the per-event rules of the type's invariants; -32602 naming the offending field.
    public func validate() throws(RPCError) {
        if let action, !event.actions.contains(action) {
            if event.actions.isEmpty {
                throw RPCError.invalidParams(field: "action", "is not taken by \(event.rawValue)")
            }
            let choices = event.actions.map(\.rawValue).joined(separator: ", ")
            throw RPCError.invalidParams(field: "action", "must be one of \(choices) for \(event.rawValue)")
        }
        if event.requiresApp {
            guard let app else { throw RPCError.invalidParams(field: "app", "is required for \(event.rawValue)") }
            guard HelloParams.isValidAppID(app) else {
                throw RPCError.invalidParams(
                    field: "app", "must be 1…\(HelloParams.maxAppIDLength) characters from A-Z a-z 0-9 . _ -"
                )
            }
        } else if app != nil {
            throw RPCError.invalidParams(field: "app", "is not taken by \(event.rawValue)")
        }
        if level != nil, event != .memoryWarning {
            throw RPCError.invalidParams(field: "level", "is only taken by memory-warning")
        }
        if byUser, event != .terminate {
            throw RPCError.invalidParams(field: "byUser", "is only taken by terminate")
        }
    }

    public var json: JSONValue { json(members: .all) }
}

/// The params of `wait` (controller, observer → broker): answer when APP is in STATE, now or later.
///
/// A plain value (`Sendable`). Wire form: `{"app":"com.example.x","state":"background","timeoutMs":10000}`.
/// Invariants enforced by `init(json:)`: `app` is a well-formed app id (an app the broker does not know yet is
/// waited for: its current state is `notRunning`); `state` is a `LifecycleState`; `timeoutMs` is optional
/// (`nil`: the broker's default) and a finite number from 0 to `maxTimeoutMs` (one day). On timeout the broker
/// answers `lifebus.TimedOut` (`WaitTimeout`). Answered with `WaitResult`.
public struct WaitParams: Sendable, Equatable {
    /// The longest `timeoutMs` accepted: one day (a longer wait is a controller's loop, not one request).
    public static let maxTimeoutMs: Double = 86_400_000

    public var app: String
    public var state: LifecycleState
    public var timeoutMs: Double?

    public init(app: String, state: LifecycleState, timeoutMs: Double? = nil) {
        self.app = app
        self.state = state
        self.timeoutMs = timeoutMs
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        app = try reader.appID("app")
        state = try reader.choice("state", as: LifecycleState.self)
        timeoutMs = try reader.optionalDouble("timeoutMs", maximum: Self.maxTimeoutMs)
    }

    public var json: JSONValue {
        var object: JSONObject = ["app": .string(app), "state": .string(state.rawValue)]
        if let timeoutMs { object.append("timeoutMs", .double(timeoutMs)) }
        return .object(object)
    }
}

/// The result of `wait`: `{"app":"com.example.x","state":"background","sinceMs":123.4}` — the app is in `state`
/// since `sinceMs` (the broker's monotonic milliseconds). A plain value (`Sendable`).
public struct WaitResult: Sendable, Equatable {
    public var app: String
    public var state: LifecycleState
    public var sinceMs: Double

    public init(app: String, state: LifecycleState, sinceMs: Double) {
        self.app = app
        self.state = state
        self.sinceMs = sinceMs
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        app = try reader.string("app")
        state = try reader.choice("state", as: LifecycleState.self)
        sinceMs = try reader.double("sinceMs")
    }

    public var json: JSONValue {
        ["app": .string(app), "state": .string(state.rawValue), "sinceMs": .double(sinceMs)]
    }
}

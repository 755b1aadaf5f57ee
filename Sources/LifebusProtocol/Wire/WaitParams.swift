public import LifebusJSON
public import LifebusLifecycle

/// The params of `wait` (controller, observer → broker): answer when APP is in STATE (or in any of several), now
/// or later.
///
/// A plain value (`Sendable`). Wire form: `{"app":"com.example.x","state":"background","timeoutMs":10000}`, or
/// with several states `{"app":"com.example.x","state":["background","suspended"]}`.
/// Invariants enforced by `init(json:)`: `app` is a well-formed app id (an app the broker does not know yet is
/// waited for: its current state is `notRunning`); `state` is a `LifecycleState` or a non-empty array of them
/// (`states`, duplicates dropped, order kept); `timeoutMs` is optional (`nil`: the broker's default) and a finite
/// number from 0 to `maxTimeoutMs` (one day). On timeout the broker answers `lifebus.TimedOut` (`WaitTimeout`).
/// Answered with `WaitResult`, whose `state` is the one reached.
public struct WaitParams: Sendable, Equatable {
    /// The longest `timeoutMs` accepted: one day (a longer wait is a controller's loop, not one request).
    public static let maxTimeoutMs: Double = 86_400_000

    public var app: String
    public var states: [LifecycleState]
    public var timeoutMs: Double?

    public init(app: String, states: [LifecycleState], timeoutMs: Double? = nil) {
        self.app = app
        self.states = states
        self.timeoutMs = timeoutMs
    }

    public init(app: String, state: LifecycleState, timeoutMs: Double? = nil) {
        self.init(app: app, states: [state], timeoutMs: timeoutMs)
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        app = try reader.appID("app")
        if case .array(let items) = try reader.required("state") {
            guard !items.isEmpty else { throw RPCError.invalidParams(field: "state", "must not be an empty array") }
            var states: [LifecycleState] = []
            for item in items {
                guard let text = item.stringValue, let state = LifecycleState(rawValue: text) else {
                    let choices = LifecycleState.allCases.map(\.rawValue).joined(separator: ", ")
                    throw RPCError.invalidParams(field: "state", "must hold only states: \(choices)")
                }
                if !states.contains(state) { states.append(state) }
            }
            self.states = states
        } else {
            states = [try reader.choice("state", as: LifecycleState.self)]
        }
        timeoutMs = try reader.optionalDouble("timeoutMs", maximum: Self.maxTimeoutMs)
    }

    public var json: JSONValue {
        let names = states.map { JSONValue.string($0.rawValue) }
        let state: JSONValue = names.count == 1 ? names[0] : .array(names)
        var object: JSONObject = ["app": .string(app), "state": state]
        if let timeoutMs { object.append("timeoutMs", .double(timeoutMs)) }
        return .object(object)
    }

    /// The states as people write them: `background|suspended`.
    public var statesText: String { states.map(\.rawValue).joined(separator: "|") }
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

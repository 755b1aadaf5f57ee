public import LifebusJSON
public import LifebusLifecycle

/// The params of `wait` with `scene` (controller, observer → broker): answer when scene SCENE of APP is in a scene
/// state (or in any of several), now or later (`Protocol/README.md` §11.3).
///
/// A plain value (`Sendable`). Wire form: `{"app":"com.example.x","scene":2,"state":"foregroundActive"}`, or with
/// several states `{"app":"com.example.x","scene":2,"state":["background","unattached"]}`; the broker reads a `wait`
/// whose params have a `scene` member as this, any other as `WaitParams`.
/// Invariants enforced by `init(json:)`: `app` is a well-formed app id; `scene` an integer ≥ 1 (a scene not connected
/// yet is waited for; one not connected is `unattached`); `state` a `SceneState` or a non-empty array of them
/// (`states`, duplicates dropped, order kept); `timeoutMs` as `WaitParams`'. On timeout the broker answers
/// `lifebus.TimedOut` (`WaitTimeout` with `sceneState`). Answered with `SceneWaitResult`.
public struct SceneWaitParams: Sendable, Equatable {
    public var app: String
    public var scene: SceneID
    public var states: [SceneState]
    public var timeoutMs: Double?

    public init(app: String, scene: SceneID, states: [SceneState], timeoutMs: Double? = nil) {
        self.app = app
        self.scene = scene
        self.states = states
        self.timeoutMs = timeoutMs
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        app = try reader.appID("app")
        scene = SceneID(try reader.integer("scene", as: UInt32.self, minimum: 1))
        let choices = SceneState.allCases.map(\.rawValue).joined(separator: ", ")
        if case .array(let items) = try reader.required("state") {
            guard !items.isEmpty else { throw RPCError.invalidParams(field: "state", "must not be an empty array") }
            var states: [SceneState] = []
            for item in items {
                guard let text = item.stringValue, let state = SceneState(rawValue: text) else {
                    throw RPCError.invalidParams(field: "state", "with scene, must hold only scene states: \(choices)")
                }
                if !states.contains(state) { states.append(state) }
            }
            self.states = states
        } else {
            guard let text = reader.optional("state")?.stringValue, let state = SceneState(rawValue: text) else {
                throw RPCError.invalidParams(field: "state", "with scene, must be a scene state: \(choices)")
            }
            states = [state]
        }
        timeoutMs = try reader.optionalDouble("timeoutMs", maximum: WaitParams.maxTimeoutMs)
    }

    /// Whether `params` name a scene: a `wait` to read as `SceneWaitParams`.
    public static func namesScene(_ params: JSONValue) -> Bool {
        if case .object(let object) = params, let scene = object["scene"], !scene.isNull { return true }
        return false
    }

    public var json: JSONValue {
        let names = states.map { JSONValue.string($0.rawValue) }
        let state: JSONValue = names.count == 1 ? names[0] : .array(names)
        var object: JSONObject = ["app": .string(app), "scene": .integer(Int64(scene.number)), "state": state]
        if let timeoutMs { object.append("timeoutMs", .double(timeoutMs)) }
        return .object(object)
    }

    /// What is waited for, as people write it: `com.example.x/2`.
    public var target: String { "\(app)/\(scene.number)" }

    /// The states as people write them: `background|unattached`.
    public var statesText: String { states.map(\.rawValue).joined(separator: "|") }
}

/// The result of `wait` with `scene`: `{"app":"com.example.x","scene":2,"session":2,"state":"foregroundActive",
/// "sinceMs":123.4}` — the scene is in `state`; `session` the session it shows (absent when the scene is not
/// connected, so `unattached`); `sinceMs` (the broker's monotonic milliseconds) when the scene entered the state,
/// `null` when the broker did not see it enter it (a scene still connecting, or one not connected). A plain value.
public struct SceneWaitResult: Sendable, Equatable {
    public var app: String
    public var scene: SceneID
    public var session: SceneSessionID?
    public var state: SceneState
    public var sinceMs: Double?

    public init(app: String, scene: SceneID, session: SceneSessionID?, state: SceneState, sinceMs: Double?) {
        self.app = app
        self.scene = scene
        self.session = session
        self.state = state
        self.sinceMs = sinceMs
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        app = try reader.string("app")
        scene = SceneID(try reader.integer("scene", as: UInt32.self, minimum: 1))
        session = try reader.optionalInteger("session", as: UInt32.self).map(SceneSessionID.init)
        state = try reader.choice("state", as: SceneState.self)
        sinceMs = try reader.optionalDouble("sinceMs")
    }

    public var json: JSONValue {
        var object: JSONObject = ["app": .string(app), "scene": .integer(Int64(scene.number))]
        if let session { object.append("session", .integer(Int64(session.number))) }
        object.append("state", .string(state.rawValue))
        object.append("sinceMs", sinceMs.map(JSONValue.double) ?? .null)
        return .object(object)
    }
}

public import LifebusLifecycle

/// The params of `status` (controller, observer → broker): `{"app":"com.example.x"}` or `{}`.
///
/// A plain value (`Sendable`). `app`, when given, must be a well-formed app id; the result then holds just that
/// app, or the call fails with `lifebus.AppNotFound` (a broker decision).
public struct StatusParams: Sendable, Equatable {
    public var app: String?

    public init(app: String? = nil) {
        self.app = app
    }

    public init(json: JSONValue) throws(RPCError) {
        app = try ParamsReader(json).optionalAppID("app")
    }

    public var json: JSONValue {
        guard let app else { return [:] }
        return ["app": .string(app)]
    }
}

/// One app as `status` reports it. A plain value (`Sendable`).
///
/// Wire form: `{"id":"com.example.x","pid":1234,"state":"active","sinceMs":12.5,"connected":true}` — `pid` is
/// `null` when no process is known; `sinceMs` is the broker's monotonic milliseconds when the app entered
/// `state`; `connected` says whether the app's connection is open.
public struct AppStatus: Sendable, Equatable {
    public var id: String
    public var pid: Int32?
    public var state: LifecycleState
    public var sinceMs: Double
    public var connected: Bool

    public init(id: String, pid: Int32?, state: LifecycleState, sinceMs: Double, connected: Bool) {
        self.id = id
        self.pid = pid
        self.state = state
        self.sinceMs = sinceMs
        self.connected = connected
    }

    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        id = try reader.string("id")
        pid = try reader.optionalInteger("pid", as: Int32.self)
        state = try reader.choice("state", as: LifecycleState.self)
        sinceMs = try reader.double("sinceMs")
        connected = try reader.bool("connected", default: false)
    }

    public var json: JSONValue {
        [
            "id": .string(id),
            "pid": .optional(pid) { .integer(Int64($0)) },
            "state": .string(state.rawValue),
            "sinceMs": .double(sinceMs),
            "connected": .bool(connected),
        ]
    }
}

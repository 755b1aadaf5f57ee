public import LifebusJSON
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
/// `state`; `connected` says whether the app's connection is open; `launchBudgetMs`, written only while a launch
/// waits for the app's process to connect, is the launch budget that wait counts against.
public struct AppStatus: Sendable, Equatable {
    public var id: String
    public var pid: Int32?
    public var state: LifecycleState
    public var sinceMs: Double
    public var connected: Bool
    /// The app's last resident-memory sample (`lifebusd --memory-sample`); `nil`, and not written, when none.
    public var residentBytes: Int64?
    /// Its process group is stopped while it is suspended (`--freeze-suspended`); written only when `true`.
    public var frozen: Bool
    /// While a launch waits for the app's process to connect: the launch budget in ms; `nil`, not written, else.
    public var launchBudgetMs: Double?

    public init(
        id: String, pid: Int32?, state: LifecycleState, sinceMs: Double, connected: Bool,
        residentBytes: Int64? = nil, frozen: Bool = false, launchBudgetMs: Double? = nil
    ) {
        self.id = id
        self.pid = pid
        self.state = state
        self.sinceMs = sinceMs
        self.connected = connected
        self.residentBytes = residentBytes
        self.frozen = frozen
        self.launchBudgetMs = launchBudgetMs
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
        residentBytes = try reader.optionalInteger("residentBytes", as: Int64.self)
        frozen = try reader.bool("frozen", default: false)
        launchBudgetMs = try reader.optionalDouble("launchBudgetMs")
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id),
            "pid": .optional(pid) { .integer(Int64($0)) },
            "state": .string(state.rawValue),
            "sinceMs": .double(sinceMs),
            "connected": .bool(connected),
        ]
        if let residentBytes { object.append("residentBytes", .integer(residentBytes)) }
        if frozen { object.append("frozen", .bool(true)) }
        if let launchBudgetMs { object.append("launchBudgetMs", .double(launchBudgetMs)) }
        return .object(object)
    }
}

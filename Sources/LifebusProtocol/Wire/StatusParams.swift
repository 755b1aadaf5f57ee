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
/// waits for the app's process to connect, is the launch budget that wait counts against; `tasks`, written only when
/// the app has any, its pending and running `BGTask`s.
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
    /// A scene app's sessions in id order (`SceneSessionEntry`); empty, and not written, for an app without any.
    public var scenes: [SceneSessionEntry]
    /// Its pending and running `BGTask`s (`TaskStatusEntry`); empty, and not written, when it has none.
    public var tasks: [TaskStatusEntry]

    public init(
        id: String, pid: Int32?, state: LifecycleState, sinceMs: Double, connected: Bool,
        residentBytes: Int64? = nil, frozen: Bool = false, launchBudgetMs: Double? = nil,
        scenes: [SceneSessionEntry] = [], tasks: [TaskStatusEntry] = []
    ) {
        self.id = id
        self.pid = pid
        self.state = state
        self.sinceMs = sinceMs
        self.connected = connected
        self.residentBytes = residentBytes
        self.frozen = frozen
        self.launchBudgetMs = launchBudgetMs
        self.scenes = scenes
        self.tasks = tasks
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
        scenes = []
        if reader.has("scenes") {
            scenes = try reader.array("scenes") { value, path throws(RPCError) -> SceneSessionEntry in
                try SceneSessionEntry(reader: try ParamsReader(value, path: path))
            }
        }
        tasks = []
        if reader.has("tasks") {
            tasks = try reader.array("tasks") { value, path throws(RPCError) -> TaskStatusEntry in
                try TaskStatusEntry(reader: try ParamsReader(value, path: path))
            }
        }
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
        if !scenes.isEmpty { object.append("scenes", .array(scenes.map(\.json))) }
        if !tasks.isEmpty { object.append("tasks", .array(tasks.map(\.json))) }
        return .object(object)
    }
}

/// One session of a scene app in `status` (`schemas/app-status.schema.json`, `scenes`):
/// `{"session":1,"scene":3,"state":"background","restoration":true}` — `scene` and `state` only while a scene is
/// connected to the session; `restoration` whether a restoration payload is kept for it. A plain value.
public struct SceneSessionEntry: Sendable, Equatable {
    public var session: SceneSessionID
    public var scene: SceneID?
    public var state: SceneState?
    public var restoration: Bool

    public init(session: SceneSessionID, scene: SceneID? = nil, state: SceneState? = nil, restoration: Bool = false) {
        self.session = session
        self.scene = scene
        self.state = state
        self.restoration = restoration
    }

    init(reader: ParamsReader) throws(RPCError) {
        session = SceneSessionID(try reader.integer("session", as: UInt32.self, minimum: 1))
        scene = try reader.optionalInteger("scene", as: UInt32.self).map { SceneID($0) }
        state = try reader.optionalChoice("state", as: SceneState.self)
        restoration = try reader.bool("restoration", default: false)
    }

    public var json: JSONValue {
        var object: JSONObject = ["session": .integer(Int64(session.number))]
        if let scene { object.append("scene", .integer(Int64(scene.number))) }
        if let state { object.append("state", .string(state.rawValue)) }
        object.append("restoration", .bool(restoration))
        return .object(object)
    }
}

public import LifebusJSON
public import LifebusLifecycle

/// What happened to an app's process, as the broker saw it: a journal line and the params of the `process`
/// notification observers receive.
///
/// A plain value (`Sendable`). Wire form (every member written, `null` for the absent ones):
/// `{"type":"process","seq":7,"app":"com.example.Notes","pid":4321,"event":"exited","status":null,"signal":9,
/// "reason":"jetsam","detail":null,"launch":null,"atMs":812.5,"wallMs":1763780000000}` — `event` is `started` (the
/// broker spawned it), `connected` (the spawned process said `hello`), `launching` (`didFinishLaunching` sent with
/// `launch`, a `LaunchContext` without its payload), `exited` (reaped: `status` or `signal`; `reason` that of the
/// kill that ended it, as in its `killed` record), `killed` (the broker sent the kill; `reason` says why),
/// `launchFailed` (nothing started; `detail` names the path and errno, `pid` is `null`) or `disconnected` (the
/// broker dropped the app's connection for its output; `reason` is `outputLimitExceeded` or `writeStalled`). A
/// `connected` record of an app that declared the callbacks it implements (hello's `implements`) adds
/// `"implements":[…]` after `wallMs` (the migration diff reads it); no other record has the member.
public struct ProcessRecord: Sendable, Equatable {
    /// The value of the `type` member.
    public static let type = "process"

    /// What happened to the process.
    public enum Event: String, Sendable, CaseIterable {
        case started
        /// The spawned process said `hello`: the launch's second part.
        case connected
        /// An installed app is sent `didFinishLaunching` with launch options (`launch`).
        case launching
        case exited
        case killed
        case launchFailed
        /// The broker ended the app's connection because it did not read its output; `reason` is
        /// `outputLimitExceeded` or `writeStalled`. The app's ending that follows is `disconnected`.
        case disconnected
    }

    public var seq: Int64
    public var app: String
    public var pid: Int32?
    public var event: Event
    /// The exit status, for an `exited` process that exited.
    public var status: Int32?
    /// The signal that ended an `exited` process.
    public var signal: Int32?
    /// Why the broker killed it (`killed`; on `exited`, when its kill ended it), or dropped it (`disconnected`).
    public var reason: Reason?
    /// For people: why a launch failed.
    public var detail: String?
    /// `launching`: the launch options sent (without the payload: its size and hash).
    public var launch: LaunchContext?
    public var atMs: Double
    public var wallMs: Int64
    /// `connected`: the callbacks the app said in hello it implements; empty when it said none.
    public var implements: [LifecycleCallback]

    public init(
        seq: Int64, app: String, pid: Int32?, event: Event, status: Int32? = nil, signal: Int32? = nil,
        reason: Reason? = nil, detail: String? = nil, launch: LaunchContext? = nil, atMs: Double, wallMs: Int64,
        implements: [LifecycleCallback] = []
    ) {
        self.seq = seq
        self.app = app
        self.pid = pid
        self.event = event
        self.status = status
        self.signal = signal
        self.reason = reason
        self.detail = detail
        self.launch = launch
        self.atMs = atMs
        self.wallMs = wallMs
        self.implements = implements
    }

    /// Reads a record; `type`, when present, must be `"process"`.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        try reader.expectType(Self.type)
        seq = try reader.integer("seq", as: Int64.self, minimum: 1)
        app = try reader.string("app")
        pid = try reader.optionalInteger("pid", as: Int32.self)
        event = try reader.choice("event", as: Event.self)
        status = try reader.optionalInteger("status", as: Int32.self)
        signal = try reader.optionalInteger("signal", as: Int32.self)
        reason = try reader.optionalChoice("reason", as: Reason.self)
        detail = try reader.optionalString("detail")
        launch = try reader.optional("launch").flatMap { $0 == .null ? nil : $0 }.map { value throws(RPCError) in
            try LaunchContext(json: value)
        }
        atMs = try reader.double("atMs")
        wallMs = try reader.integer("wallMs", as: Int64.self)
        var callbacks: [LifecycleCallback] = []
        for (index, name) in try reader.stringArray("implements").enumerated() {
            guard let callback = LifecycleCallback(rawValue: name) else {
                throw RPCError.invalidParams(field: reader.path("implements[\(index)]"), "is not a callback's name")
            }
            callbacks.append(callback)
        }
        implements = callbacks
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "type": .string(Self.type),
            "seq": .integer(seq),
            "app": .string(app),
            "pid": .optional(pid) { .integer(Int64($0)) },
            "event": .string(event.rawValue),
            "status": .optional(status) { .integer(Int64($0)) },
            "signal": .optional(signal) { .integer(Int64($0)) },
            "reason": .optional(reason) { .string($0.rawValue) },
            "detail": .optional(detail, JSONValue.string),
            "launch": .optional(launch) { $0.json(withPayload: false) },
            "atMs": .double(atMs),
            "wallMs": .integer(wallMs),
        ]
        if !implements.isEmpty { object.append("implements", .array(implements.map { .string($0.rawValue) })) }
        return .object(object)
    }
}

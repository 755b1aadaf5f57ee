public import LifebusJSON
public import LifebusLifecycle

/// One step of a `BGTask`: a journal line and the params of the `task` notification observers receive
/// (`Protocol/README.md` §13).
///
/// A plain value (`Sendable`). Wire form (every member written, `null` for the absent ones):
/// `{"type":"task","seq":19,"app":"com.example.Feed","pid":1234,"identifier":"com.example.Feed.refresh",
/// "kind":"appRefresh","event":"launched","success":null,"atMs":900000,"wallMs":1763780000000}` — `event` one of
/// `Event`; `success` only for `completed`.
public struct BackgroundTaskRecord: Sendable, Equatable {
    /// The value of the `type` member.
    public static let type = "task"

    /// What happened to the task: `submitted`, `launched`, `expiring`, `completed`, `expired`, `cancelled`,
    /// `deferred` (due for a force-quit app that is not running, of a kind that does not launch it: still pending).
    public enum Event: String, Sendable, CaseIterable {
        case submitted, launched, expiring, completed, expired, cancelled, deferred
    }

    public var seq: Int64
    public var app: String
    public var pid: Int32?
    public var identifier: String
    public var kind: BackgroundTaskKind
    public var event: Event
    public var success: Bool?
    public var atMs: Double
    public var wallMs: Int64

    public init(
        seq: Int64, app: String, pid: Int32?, identifier: String, kind: BackgroundTaskKind, event: Event,
        success: Bool?, atMs: Double, wallMs: Int64
    ) {
        self.seq = seq
        self.app = app
        self.pid = pid
        self.identifier = identifier
        self.kind = kind
        self.event = event
        self.success = success
        self.atMs = atMs
        self.wallMs = wallMs
    }

    /// Reads a record; `type`, when present, must be `"task"`.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        try reader.expectType(Self.type)
        seq = try reader.integer("seq", as: Int64.self, minimum: 1)
        app = try reader.string("app")
        pid = try reader.optionalInteger("pid", as: Int32.self)
        identifier = try reader.string("identifier")
        kind = try reader.choice("kind", as: BackgroundTaskKind.self)
        event = try reader.choice("event", as: Event.self)
        success = reader.has("success") ? try reader.bool("success", default: false) : nil
        atMs = try reader.double("atMs")
        wallMs = try reader.integer("wallMs", as: Int64.self)
    }

    public var json: JSONValue {
        [
            "type": .string(Self.type),
            "seq": .integer(seq),
            "app": .string(app),
            "pid": .optional(pid) { .integer(Int64($0)) },
            "identifier": .string(identifier),
            "kind": .string(kind.rawValue),
            "event": .string(event.rawValue),
            "success": .optional(success, JSONValue.bool),
            "atMs": .double(atMs),
            "wallMs": .integer(wallMs),
        ]
    }
}

/// One step of a push's delivery: a journal line and the params of the `push` notification observers receive
/// (`Protocol/README.md` §13).
///
/// A plain value (`Sendable`). Wire form: `{"type":"push","seq":20,"app":"com.example.Feed","pid":1234,
/// "event":"answered","result":"newData","payload":{"aps":{"content-available":1}},"atMs":1200,
/// "wallMs":1763780000000}` — `result` only for `answered` and `late`; `presentation` (an array of option names,
/// `[]` for none) only for `presented`, and left out of every other record; `payload` the push's JSON (kept as
/// text).
public struct PushDeliveryRecord: Sendable, Equatable {
    /// The value of the `type` member.
    public static let type = "push"

    /// What happened to the push: `delivered`, `deferred`, `answered`, `late`, `discarded`, or `presented` (a
    /// visible notification the app in the foreground answered `willPresentNotification` for, with `presentation`).
    public enum Event: String, Sendable, CaseIterable {
        case delivered, deferred, answered, late, discarded, presented
    }

    public var seq: Int64
    public var app: String
    public var pid: Int32?
    public var event: Event
    public var result: BackgroundFetchResult?
    /// `presented`'s options, as the app chose them (empty: none, no banner); `nil` for every other event.
    public var presentation: NotificationPresentationOptions?
    /// JSON text.
    public var payload: String
    public var atMs: Double
    public var wallMs: Int64

    public init(
        seq: Int64, app: String, pid: Int32?, event: Event, result: BackgroundFetchResult?,
        presentation: NotificationPresentationOptions? = nil, payload: String, atMs: Double, wallMs: Int64
    ) {
        self.seq = seq
        self.app = app
        self.pid = pid
        self.event = event
        self.result = result
        self.presentation = presentation
        self.payload = payload
        self.atMs = atMs
        self.wallMs = wallMs
    }

    /// Reads a record; `type`, when present, must be `"push"`.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        try reader.expectType(Self.type)
        seq = try reader.integer("seq", as: Int64.self, minimum: 1)
        app = try reader.string("app")
        pid = try reader.optionalInteger("pid", as: Int32.self)
        event = try reader.choice("event", as: Event.self)
        result = try reader.optionalChoice("result", as: BackgroundFetchResult.self)
        presentation = try reader.optional("presentation").map { value throws(RPCError) in
            try NotificationPresentationOptions(json: value, field: reader.path("presentation"))
        }
        payload = (reader.optional("payload") ?? .object([:])).jsonText
        atMs = try reader.double("atMs")
        wallMs = try reader.integer("wallMs", as: Int64.self)
    }

    /// The step as the journal's readers print it after `push `: `delivered`, `answered newData`, `presented
    /// banner,sound`, `presented none`.
    public var step: String {
        if let presentation { return "\(event.rawValue) \(presentation.summary)" }
        return event.rawValue + (result.map { " \($0.rawValue)" } ?? "")
    }

    /// The record; `presentation` only when it has one (a `presented` record).
    public var json: JSONValue {
        var object: JSONObject = [
            "type": .string(Self.type),
            "seq": .integer(seq),
            "app": .string(app),
            "pid": .optional(pid) { .integer(Int64($0)) },
            "event": .string(event.rawValue),
            "result": .optional(result) { .string($0.rawValue) },
        ]
        if let presentation { object.append("presentation", presentation.json) }
        object.append("payload", JSONValue(embedding: payload))
        object.append("atMs", .double(atMs))
        object.append("wallMs", .integer(wallMs))
        return .object(object)
    }
}

/// The device's protected data became available or unavailable: a journal line and the params of the
/// `protectedData` notification observers receive (`Protocol/README.md` §13).
///
/// A plain value (`Sendable`). Wire form: `{"type":"protectedData","seq":21,"available":false,"atMs":10000,
/// "wallMs":1763780000000}`.
public struct ProtectedDataRecord: Sendable, Equatable {
    /// The value of the `type` member.
    public static let type = "protectedData"

    public var seq: Int64
    public var available: Bool
    public var atMs: Double
    public var wallMs: Int64

    public init(seq: Int64, available: Bool, atMs: Double, wallMs: Int64) {
        self.seq = seq
        self.available = available
        self.atMs = atMs
        self.wallMs = wallMs
    }

    /// Reads a record; `type`, when present, must be `"protectedData"`.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        try reader.expectType(Self.type)
        seq = try reader.integer("seq", as: Int64.self, minimum: 1)
        guard reader.has("available") else { throw RPCError.invalidParams(field: "available", "is required") }
        available = try reader.bool("available", default: true)
        atMs = try reader.double("atMs")
        wallMs = try reader.integer("wallMs", as: Int64.self)
    }

    public var json: JSONValue {
        [
            "type": .string(Self.type),
            "seq": .integer(seq),
            "available": .bool(available),
            "atMs": .double(atMs),
            "wallMs": .integer(wallMs),
        ]
    }
}

public import LifebusJSON

/// One `mark` an app made: a journal line and the params of the `mark` notification observers receive.
///
/// A plain value (`Sendable`). Wire form (every member written, `null` for the absent ones):
/// `{"type":"mark","seq":18,"app":"com.example.DeepThoughts","pid":1234,"name":"state-saved","data":{"items":3},
/// "atMs":14.2,"wallMs":1763780000000}` — `seq` (≥ 1) numbers journal entries from 1; `pid` may be `null`;
/// `data` is the app's object or `null`; `atMs` is the broker's monotonic milliseconds when the mark arrived,
/// `wallMs` the Unix time in milliseconds.
public struct MarkRecord: Sendable, Equatable {
    /// The value of the `type` member.
    public static let type = "mark"

    public var seq: Int64
    public var app: String
    public var pid: Int32?
    public var name: String
    public var data: JSONObject?
    public var atMs: Double
    public var wallMs: Int64

    public init(seq: Int64, app: String, pid: Int32?, name: String, data: JSONObject?, atMs: Double, wallMs: Int64) {
        self.seq = seq
        self.app = app
        self.pid = pid
        self.name = name
        self.data = data
        self.atMs = atMs
        self.wallMs = wallMs
    }

    /// Reads a record; `type`, when present, must be `"mark"`.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        try reader.expectType(Self.type)
        seq = try reader.integer("seq", as: Int64.self, minimum: 1)
        app = try reader.string("app")
        pid = try reader.optionalInteger("pid", as: Int32.self)
        name = try reader.string("name")
        data = try reader.optionalObject("data")
        atMs = try reader.double("atMs")
        wallMs = try reader.integer("wallMs", as: Int64.self)
    }

    public var json: JSONValue {
        [
            "type": .string(Self.type),
            "seq": .integer(seq),
            "app": .string(app),
            "pid": .optional(pid) { .integer(Int64($0)) },
            "name": .string(name),
            "data": .optional(data, JSONValue.object),
            "atMs": .double(atMs),
            "wallMs": .integer(wallMs),
        ]
    }
}

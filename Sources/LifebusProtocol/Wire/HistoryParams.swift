/// The params of `history` (controller, observer → broker): `{"app":"com.example.x","limit":100}`, both optional.
///
/// A plain value (`Sendable`). `app` (a well-formed app id) keeps only that app's entries; `limit` (≥ 1) keeps the
/// newest that many. The broker holds the last `HistoryParams.retained` entries in memory.
public struct HistoryParams: Sendable, Equatable {
    /// How many journal entries the broker keeps in memory for `history`.
    public static let retained = 10_000

    public var app: String?
    public var limit: Int?

    public init(app: String? = nil, limit: Int? = nil) {
        self.app = app
        self.limit = limit
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        app = try reader.optionalAppID("app")
        limit = reader.has("limit") ? try reader.integer("limit", as: Int.self, minimum: 1) : nil
    }

    public var json: JSONValue {
        var object = JSONObject()
        if let app { object.append("app", .string(app)) }
        if let limit { object.append("limit", .integer(Int64(limit))) }
        return .object(object)
    }
}

/// The result of `history`: `{"entries":[JournalEntry…]}`, oldest first. A plain value (`Sendable`).
public struct HistoryResult: Sendable, Equatable {
    public var entries: [JournalEntry]

    public init(entries: [JournalEntry]) {
        self.entries = entries
    }

    public init(json: JSONValue) throws(RPCError) {
        entries = try ParamsReader(json).array("entries") { value, path throws(RPCError) in
            try JournalEntry(json: value, path: path)
        }
    }

    public var json: JSONValue {
        ["entries": .array(entries.map(\.json))]
    }
}

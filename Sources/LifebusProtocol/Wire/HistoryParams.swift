public import LifebusJSON

/// The params of `history` (controller, observer → broker): `{"app":"com.example.x","limit":100,"beforeSeq":420}`,
/// all optional.
///
/// A plain value (`Sendable`). `app` (a well-formed app id) keeps only that app's entries; `limit` (1…`maxLimit`,
/// default `maxLimit`) keeps the newest that many; `beforeSeq` (≥ 1) keeps only entries with a smaller `seq`, so a
/// reader pages back from the newest: the next page's `beforeSeq` is the first entry's `seq` of this one, while the
/// result says `more`. The broker holds the last `retained` entries (at most `retainedBytes` of them) in memory;
/// one answer carries at most `maxPageBytes` of entries (at least one entry).
public struct HistoryParams: Sendable, Equatable {
    /// How many journal entries the broker keeps in memory for `history`.
    public static let retained = 10_000
    /// How many bytes (as JSON) of journal entries the broker keeps in memory for `history`.
    public static let retainedBytes = 8 * 1024 * 1024
    /// The largest (and the default) `limit`.
    public static let maxLimit = 1000
    /// The most bytes (as JSON) of entries one `history` answer carries.
    public static let maxPageBytes = 512 * 1024

    public var app: String?
    public var limit: Int?
    public var beforeSeq: Int64?

    public init(app: String? = nil, limit: Int? = nil, beforeSeq: Int64? = nil) {
        self.app = app
        self.limit = limit
        self.beforeSeq = beforeSeq
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        app = try reader.optionalAppID("app")
        limit = reader.has("limit")
            ? try reader.integer("limit", as: Int.self, minimum: 1, maximum: Self.maxLimit) : nil
        beforeSeq = reader.has("beforeSeq") ? try reader.integer("beforeSeq", as: Int64.self, minimum: 1) : nil
    }

    public var json: JSONValue {
        var object = JSONObject()
        if let app { object.append("app", .string(app)) }
        if let limit { object.append("limit", .integer(Int64(limit))) }
        if let beforeSeq { object.append("beforeSeq", .integer(beforeSeq)) }
        return .object(object)
    }
}

/// The result of `history`: `{"entries":[JournalEntry…],"more":false}`, oldest first; `more` says whether older
/// entries the broker still holds were left out (ask again with `beforeSeq` set to the first entry's `seq`).
/// A plain value (`Sendable`); a result without `more` (an older broker) reads as `more: false`.
public struct HistoryResult: Sendable, Equatable {
    public var entries: [JournalEntry]
    public var more: Bool

    public init(entries: [JournalEntry], more: Bool = false) {
        self.entries = entries
        self.more = more
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        entries = try reader.array("entries") { value, path throws(RPCError) in
            try JournalEntry(json: value, path: path)
        }
        more = try reader.bool("more", default: false)
    }

    public var json: JSONValue {
        ["entries": .array(entries.map(\.json)), "more": .bool(more)]
    }
}

public import LifebusJSON

/// The params of `mark` (app → broker): a named point in the app's life, journalled and sent to observers.
///
/// A plain value (`Sendable`). Wire form: `{"name":"state-saved","data":{"items":3}}` — `name` is required and
/// non-empty; `data` is optional and, when present, any JSON object (carried through unchecked). Answered `{}`. The
/// broker bounds both (`lifebus.LimitExceeded`: `name` 256 bytes, `data` 16 KiB as compact JSON).
public struct MarkParams: Sendable, Equatable {
    public var name: String
    public var data: JSONObject?

    public init(name: String, data: JSONObject? = nil) {
        self.name = name
        self.data = data
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        name = try reader.string("name")
        guard !name.isEmpty else { throw RPCError.invalidParams(field: "name", "must not be empty") }
        data = try reader.optionalObject("data")
    }

    public var json: JSONValue {
        var object: JSONObject = ["name": .string(name)]
        if let data { object.append("data", .object(data)) }
        return .object(object)
    }
}

/// The params of `reportMemory` (app → broker): the app's current memory footprint, used to pick jetsam victims
/// (largest first). A plain value (`Sendable`). Wire form: `{"bytes":123456}`; invariant: `bytes` ≥ 0.
/// Answered `{}`.
public struct ReportMemoryParams: Sendable, Equatable {
    public var bytes: Int64

    public init(bytes: Int64) {
        self.bytes = bytes
    }

    public init(json: JSONValue) throws(RPCError) {
        bytes = try ParamsReader(json).integer("bytes", as: Int64.self, minimum: 0)
    }

    public var json: JSONValue { ["bytes": .integer(bytes)] }
}

/// The empty result `{}` that answers `endBackgroundTask`, `mark` and `reportMemory`.
/// A plain value (`Sendable`); `init(json:)` accepts any object (members are ignored) and rejects anything else.
public struct EmptyResult: Sendable, Equatable {
    /// The wire form, `{}`.
    public static let json: JSONValue = [:]

    public init() {}

    public init(json: JSONValue) throws(RPCError) {
        _ = try ParamsReader(json)
    }

    public var json: JSONValue { Self.json }
}

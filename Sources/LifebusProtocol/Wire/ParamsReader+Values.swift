import LifebusJSON

/// The readers for numbers, names, objects and arrays that the lifecycle wire types need (see `ParamsReader`).
extension ParamsReader {
    /// True when the member is present and not `null`.
    func has(_ key: String) -> Bool { optional(key) != nil }

    /// A finite number (integer or fraction) from `minimum` to `maximum`.
    func double(_ key: String, minimum: Double = 0, maximum: Double = .greatestFiniteMagnitude) throws(RPCError)
        -> Double
    {
        try asDouble(try required(key), key, minimum: minimum, maximum: maximum)
    }

    func optionalDouble(_ key: String, minimum: Double = 0, maximum: Double = .greatestFiniteMagnitude)
        throws(RPCError) -> Double?
    {
        guard let value = optional(key) else { return nil }
        return try asDouble(value, key, minimum: minimum, maximum: maximum)
    }

    func optionalInteger<T: FixedWidthInteger>(_ key: String, as type: T.Type) throws(RPCError) -> T? {
        guard has(key) else { return nil }
        return try integer(key, as: type)
    }

    /// An integer from `minimum` to `maximum`.
    func integer<T: FixedWidthInteger>(_ key: String, as type: T.Type, minimum: T, maximum: T = .max)
        throws(RPCError) -> T
    {
        let number = try integer(key, as: type)
        guard number >= minimum else { throw RPCError.invalidParams(field: path(key), "must be at least \(minimum)") }
        guard number <= maximum else { throw RPCError.invalidParams(field: path(key), "must be at most \(maximum)") }
        return number
    }

    /// A string spelling one of `E`'s raw values.
    func choice<E: RawRepresentable & CaseIterable>(_ key: String, as type: E.Type) throws(RPCError) -> E
    where E.RawValue == String {
        let text = try string(key)
        // The cases compared in turn, those of another length skipped (a string knows its UTF-8 length; two strings
        // of different contents that are not bit for bit the same cost `==` ~40 instructions each), where
        // `init(rawValue:)` (a string switch) costs about 900 instructions for ten cases.
        let length = text.utf8.count
        for candidate in E.allCases {
            let name = candidate.rawValue
            if name.utf8.count == length, name == text { return candidate }
        }
        let choices = E.allCases.map(\.rawValue).joined(separator: ", ")
        throw RPCError.invalidParams(field: path(key), "must be one of \(choices)")
    }

    func optionalChoice<E: RawRepresentable & CaseIterable>(_ key: String, as type: E.Type) throws(RPCError) -> E?
    where E.RawValue == String {
        guard has(key) else { return nil }
        return try choice(key, as: type)
    }

    /// A well-formed app id (`HelloParams.isValidAppID`).
    func appID(_ key: String) throws(RPCError) -> String {
        let id = try string(key)
        guard HelloParams.isValidAppID(id) else {
            throw RPCError.invalidParams(
                field: path(key), "must be 1…\(HelloParams.maxAppIDLength) characters from A-Z a-z 0-9 . _ -"
            )
        }
        return id
    }

    func optionalAppID(_ key: String) throws(RPCError) -> String? {
        guard has(key) else { return nil }
        return try appID(key)
    }

    func optionalObject(_ key: String) throws(RPCError) -> JSONObject? {
        guard let value = optional(key) else { return nil }
        guard case .object(let object) = value else {
            throw RPCError.invalidParams(field: path(key), "must be an object, not \(value.typeName)")
        }
        return object
    }

    /// The elements of a required array, each decoded by `decode` with its indexed path (`transitions[2]`).
    func array<T>(
        _ key: String,
        _ decode: (JSONValue, String) throws(RPCError) -> T
    ) throws(RPCError) -> [T] {
        let value = try required(key)
        guard case .array(let elements) = value else {
            throw RPCError.invalidParams(field: path(key), "must be an array, not \(value.typeName)")
        }
        var decoded: [T] = []
        decoded.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            decoded.append(try decode(element, "\(path(key))[\(index)]"))
        }
        return decoded
    }

    private func asDouble(_ value: JSONValue, _ key: String, minimum: Double, maximum: Double) throws(RPCError)
        -> Double
    {
        guard let number = value.doubleValue, number.isFinite else {
            throw RPCError.invalidParams(field: path(key), "must be a number, not \(value.typeName)")
        }
        guard number >= minimum else { throw RPCError.invalidParams(field: path(key), "must be at least \(minimum)") }
        guard number <= maximum else {
            throw RPCError.invalidParams(field: path(key), "must be at most \(JSONValue.double(maximum).jsonText)")
        }
        return number
    }
}

extension JSONValue {
    /// `.null` for `nil`, else the wrapped value's JSON.
    static func optional<T>(_ value: T?, _ encode: (T) -> JSONValue) -> JSONValue {
        value.map(encode) ?? .null
    }
}

import LifebusJSON

/// Reads the members of one params object, turning every mismatch into -32602 naming the field.
///
/// A transient value used inside the wire types' `init(json:)`. `prefix` is the dotted path of the object
/// (`""` for the params themselves, `"app."` for a nested one) so errors name the full path. An explicit `null`
/// counts as absent for optional members; unknown members are ignored (newer peers may send more).
struct ParamsReader {
    let object: JSONObject
    let prefix: String

    init(_ json: JSONValue, path: String? = nil) throws(RPCError) {
        guard case .object(let object) = json else {
            if let path {
                throw RPCError.invalidParams(field: path, "must be an object, not \(json.typeName)")
            }
            throw RPCError.invalidParams("params must be an object, not \(json.typeName)")
        }
        self.object = object
        self.prefix = path.map { $0 + "." } ?? ""
    }

    func path(_ key: String) -> String { prefix + key }

    /// The member, or `nil` when absent or `null`.
    func optional(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func required(_ key: String) throws(RPCError) -> JSONValue {
        guard let value = optional(key) else { throw RPCError.invalidParams(field: path(key), "is required") }
        return value
    }

    func string(_ key: String) throws(RPCError) -> String {
        try asString(try required(key), key)
    }

    func optionalString(_ key: String) throws(RPCError) -> String? {
        guard let value = optional(key) else { return nil }
        return try asString(value, key)
    }

    /// Refuses a journal record whose `type` names another kind of record (read on its own, it may leave it out).
    func expectType(_ type: String) throws(RPCError) {
        if let found = try optionalString("type"), found != type {
            throw RPCError.invalidParams(field: path("type"), "must be \(type)")
        }
    }

    func bool(_ key: String) throws(RPCError) -> Bool {
        let value = try required(key)
        guard case .bool(let flag) = value else { throw mismatch(key, "a boolean", value) }
        return flag
    }

    func bool(_ key: String, default defaultValue: Bool) throws(RPCError) -> Bool {
        guard let value = optional(key) else { return defaultValue }
        guard case .bool(let flag) = value else { throw mismatch(key, "a boolean", value) }
        return flag
    }

    func integer<T: FixedWidthInteger>(_ key: String, as type: T.Type) throws(RPCError) -> T {
        let value = try required(key)
        guard case .integer(let number) = value else { throw mismatch(key, "an integer", value) }
        guard let exact = T(exactly: number) else {
            throw RPCError.invalidParams(field: path(key), "is out of range (\(T.min)…\(T.max))")
        }
        return exact
    }

    func stringArray(_ key: String) throws(RPCError) -> [String] {
        guard let value = optional(key) else { return [] }
        guard case .array(let elements) = value else { throw mismatch(key, "an array of strings", value) }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let string) = element else { throw mismatch(key, "an array of strings", value) }
            strings.append(string)
        }
        return strings
    }

    func nested(_ key: String) throws(RPCError) -> ParamsReader {
        try ParamsReader(try required(key), path: path(key))
    }

    private func asString(_ value: JSONValue, _ key: String) throws(RPCError) -> String {
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    private func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> RPCError {
        RPCError.invalidParams(field: path(key), "must be \(expected), not \(value.typeName)")
    }
}

import LifebusProtocol

/// A `Decoder` over the project's own `JSONValue` (no Foundation): what converting the wire types to `Codable`
/// would run. Stateless apart from the value and coding path it reads; fails with `DecodingError`.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch("an object") }
        return KeyedDecodingContainer(Keyed(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        return Unkeyed(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(value: value, codingPath: codingPath)
    }

    private func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(JSONValue.self, .init(codingPath: codingPath, debugDescription: "expected \(expected)"))
    }

    static func scalar<T>(_ value: JSONValue, _ type: T.Type, _ path: [any CodingKey]) throws -> T {
        let result: Any?
        switch value {
        case .bool(let flag) where type == Bool.self: result = flag
        case .string(let text) where type == String.self: result = text
        case .integer(let number) where type == Int64.self: result = number
        case .integer(let number) where type == Int.self: result = Int(exactly: number)
        case .integer(let number) where type == Int32.self: result = Int32(exactly: number)
        case .integer(let number) where type == UInt32.self: result = UInt32(exactly: number)
        case .integer(let number) where type == Double.self: result = Double(number)
        case .double(let number) where type == Double.self: result = number
        default: result = nil
        }
        guard let typed = result as? T else {
            throw DecodingError.typeMismatch(type, .init(codingPath: path, debugDescription: "not \(type)"))
        }
        return typed
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: JSONObject
        let codingPath: [any CodingKey]
        var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool { object[key.stringValue]?.isNull ?? true }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let member = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "required"))
            }
            return try JSONValueDecoder.decode(type, from: member, codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try JSONValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
                .container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try JSONValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
                .unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { JSONValueDecoder(value: .object(object), codingPath: codingPath) }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        init(elements: [JSONValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex].isNull else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "at end"))
            }
            defer { currentIndex += 1 }
            return try JSONValueDecoder.decode(type, from: elements[currentIndex], codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            defer { currentIndex += 1 }
            return try JSONValueDecoder(value: elements[currentIndex], codingPath: codingPath).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            defer { currentIndex += 1 }
            return try JSONValueDecoder(value: elements[currentIndex], codingPath: codingPath).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            defer { currentIndex += 1 }
            return JSONValueDecoder(value: elements[currentIndex], codingPath: codingPath)
        }
    }

    struct Single: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value.isNull }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONValueDecoder.decode(type, from: value, codingPath)
        }
    }

    /// Scalars straight from the value; everything else through its `init(from:)`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, _ path: [any CodingKey]) throws -> T {
        if type == String.self || type == Bool.self || type == Int64.self || type == Int.self || type == Double.self
            || type == Int32.self || type == UInt32.self
        {
            return try scalar(value, type, path)
        }
        return try T(from: JSONValueDecoder(value: value, codingPath: path))
    }
}

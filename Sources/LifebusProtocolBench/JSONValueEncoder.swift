import LifebusProtocol

/// An `Encoder` producing the project's own `JSONValue` (no Foundation), members in the order they are encoded.
/// Owns the tree being built (a reference, so nested containers write into their parent's place).
final class JSONValueEncoder: Encoder {
    /// A slot in the tree: the value built so far.
    final class Slot {
        var value: JSONValue = .null
    }

    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(slot: Slot = Slot(), codingPath: [any CodingKey] = []) {
        self.slot = slot
        self.codingPath = codingPath
    }

    static func encode(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONValueEncoder()
        try encoder.encodeValue(value)
        return encoder.slot.value
    }

    func encodeValue<T: Encodable>(_ value: T) throws {
        switch value {
        case let text as String: slot.value = .string(text)
        case let flag as Bool: slot.value = .bool(flag)
        case let number as Int64: slot.value = .integer(number)
        case let number as Int: slot.value = .integer(Int64(number))
        case let number as Int32: slot.value = .integer(Int64(number))
        case let number as UInt32: slot.value = .integer(Int64(number))
        case let number as Double: slot.value = .double(number)
        default: try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = slot.value {} else { slot.value = .object([:]) }
        return KeyedEncodingContainer(Keyed(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = slot.value {} else { slot.value = .array([]) }
        return Unkeyed(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: Slot
        let codingPath: [any CodingKey]

        func set(_ key: Key, _ member: JSONValue) {
            guard case .object(var object) = slot.value else { return }
            slot.value = .null  // keep the object uniquely referenced while it grows
            object[key.stringValue] = member
            slot.value = .object(object)
        }

        mutating func encodeNil(forKey key: Key) throws { set(key, .null) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let child = JSONValueEncoder(codingPath: codingPath + [key])
            try child.encodeValue(value)
            set(key, child.slot.value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            preconditionFailure("not used by the measured types")
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("not used by the measured types")
        }

        mutating func superEncoder() -> any Encoder { JSONValueEncoder(slot: slot, codingPath: codingPath) }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            preconditionFailure("not used by the measured types")
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]
        var count: Int {
            if case .array(let elements) = slot.value { return elements.count }
            return 0
        }

        func append(_ element: JSONValue) {
            guard case .array(var elements) = slot.value else { return }
            slot.value = .null
            elements.append(element)
            slot.value = .array(elements)
        }

        mutating func encodeNil() throws { append(.null) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let child = JSONValueEncoder(codingPath: codingPath)
            try child.encodeValue(value)
            append(child.slot.value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            preconditionFailure("not used by the measured types")
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            preconditionFailure("not used by the measured types")
        }

        mutating func superEncoder() -> any Encoder { preconditionFailure("not used by the measured types") }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: JSONValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.slot.value = .null }

        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
    }
}

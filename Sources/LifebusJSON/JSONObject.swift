/// The members of a JSON object, in order.
///
/// Owns an array of key/value pairs (a value type; `Sendable`, no thread affinity). Insertion order is the order
/// the writer emits, so encoded text is stable.
///
/// Repeated keys: parsed text may repeat a key (RFC 8259 only says names SHOULD be unique, and JSONTestSuite's
/// `y_object_duplicated_key*` must be accepted). Every pair is kept and written back; lookup answers the LAST
/// pair with that key; setting a key replaces that last pair in place (earlier duplicates stay, shadowed);
/// setting `nil` removes every pair with the key.
///
/// Equality and hashing ignore order and shadowed duplicates: two objects are equal when they answer the same
/// value for every key. Comparing objects with the same key order is linear; otherwise it is quadratic in the
/// member count (objects on the wire are small, and nothing compares untrusted objects).
public struct JSONObject: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    var members: [Element]

    public init() {
        members = []
    }

    /// An object holding `pairs` in the given order (repeated keys kept, last wins on lookup).
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        members = pairs.map { (key: $0.0, value: $0.1) }
    }

    /// An object holding `pairs` in the given order: the array case of `init(_:)`, not generic. Called across
    /// modules, the generic one runs unspecialised, and its first run checks a conformance at run time, a scan of
    /// every conformance in the binary (about 170 k instructions, a tenth of a one-shot command).
    public init(_ pairs: [(String, JSONValue)]) {
        members = pairs.map { (key: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        if elements.isEmpty {
            self.init()  // `[:]`, written where params are absent: no mapping
        } else {
            self.init(elements)
        }
    }

    @_spi(RawJSON) public init(uncheckedMembers: [Element]) {
        members = uncheckedMembers
    }

    /// The number of pairs, counting repeated keys.
    public var count: Int { members.count }

    public var isEmpty: Bool { members.isEmpty }

    /// The keys in order (repeated keys appear as often as they were set).
    public var keys: [String] { members.map(\.key) }

    public func makeIterator() -> IndexingIterator<[Element]> {
        members.makeIterator()
    }

    /// The value of the last pair named `key`. Setting replaces that pair's value in place or appends a new pair;
    /// setting `nil` removes every pair named `key`.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = lastIndex(of: key) else { return nil }
            return members[index].value
        }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = lastIndex(of: key) {
                members[index].value = newValue
            } else {
                members.append((key: key, value: newValue))
            }
        }
    }

    /// Appends a pair without looking for an existing key (the fast path for building fresh objects).
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key: key, value: value))
    }

    @inline(__always)
    func lastIndex(of key: String) -> Int? {
        var index = members.count - 1
        while index >= 0 {
            if members[index].key == key { return index }
            index -= 1
        }
        return nil
    }

    /// True when the pair at `index` is the one lookups answer (no later pair has its key).
    private func isEffective(_ index: Int) -> Bool {
        lastIndex(of: members[index].key) == index
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        if lhs.members.count == rhs.members.count {
            var sameOrder = true
            for index in lhs.members.indices where lhs.members[index].key != rhs.members[index].key {
                sameOrder = false
                break
            }
            if sameOrder {
                for index in lhs.members.indices where lhs.members[index].value != rhs.members[index].value {
                    return false
                }
                return true
            }
        }
        return lhs.isSubset(of: rhs) && rhs.isSubset(of: lhs)
    }

    private func isSubset(of other: JSONObject) -> Bool {
        for index in members.indices where isEffective(index) {
            guard other[members[index].key] == members[index].value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine the effective pairs' own hashes commutatively.
        var seen = Set<String>()
        var combined = 0
        var index = members.count - 1
        while index >= 0 {
            let member = members[index]
            if seen.insert(member.key).inserted {
                var memberHasher = Hasher()
                memberHasher.combine(member.key)
                memberHasher.combine(member.value)
                combined ^= memberHasher.finalize()
            }
            index -= 1
        }
        hasher.combine(seen.count)
        hasher.combine(combined)
    }
}

extension JSONObject: CustomStringConvertible {
    public var description: String { JSONValue.object(self).jsonText }
}

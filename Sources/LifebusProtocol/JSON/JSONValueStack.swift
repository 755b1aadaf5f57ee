/// The values of the arrays and objects still open during one parse, MOVED (never copied) into their container
/// when it closes: no retain/release per element, no per-container scratch array.
///
/// Owns its manually allocated storage (noncopyable; lives on the stack of one `parseDocument` call and frees
/// everything it still holds in `deinit`, also when the parse throws), allocated at the first push: a document
/// without a non-empty container (`{}`, the answer most callbacks get) allocates nothing. Objects push key
/// (`.string`), value, key, value, … Invariant: elements `0..<count` are initialised, the rest is not.
struct JSONValueStack: ~Copyable {
    private var base: UnsafeMutablePointer<JSONValue>?
    private var capacity = 0
    private let initialCapacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        initialCapacity = max(capacity, 1)
    }

    deinit {
        base?.deinitialize(count: count)
        base?.deallocate()
    }

    mutating func push(_ value: consuming JSONValue) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: value)  // grow() made it
        count += 1
    }

    /// Moves the values from `start` on into a new array.
    mutating func popArray(from start: Int) -> [JSONValue] {
        let length = count - start
        guard length > 0, let base else { return [] }
        let source = base + start
        let array = [JSONValue](unsafeUninitializedCapacity: length) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: length)
            initialized = length
        }
        count = start
        return array
    }

    /// Moves the key/value pairs from `start` on into a new object.
    mutating func popObject(from start: Int) -> JSONObject {
        let pairs = (count - start) / 2
        precondition(pairs * 2 == count - start, "object stack holds a key without a value")
        guard pairs > 0, let base else { return JSONObject() }
        let source = base + start
        let members = [JSONObject.Element](unsafeUninitializedCapacity: pairs) { buffer, initialized in
            for pair in 0..<pairs {
                guard case .string(let key) = (source + 2 * pair).move() else {
                    preconditionFailure("object key slot holds a non-string")
                }
                (buffer.baseAddress! + pair).initialize(to: (key: key, value: (source + 2 * pair + 1).move()))
            }
            initialized = pairs
        }
        count = start
        return JSONObject(uncheckedMembers: members)
    }

    private mutating func grow() {
        let newCapacity = max(capacity * 2, initialCapacity)
        let newBase = UnsafeMutablePointer<JSONValue>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}

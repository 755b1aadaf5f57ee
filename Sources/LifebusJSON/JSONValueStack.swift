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
    ///
    /// Both pops reserve the array and append to it rather than use `init(unsafeUninitializedCapacity:)`: that one
    /// allocates through the standard library's unspecialized entry point, which asks the runtime for the storage
    /// class's metadata each time (~700 instructions for each container parsed; reserving and appending, specialized,
    /// costs about half that).
    mutating func popArray(from start: Int) -> [JSONValue] {
        let length = count - start
        guard length > 0, let base else { return [] }
        var array: [JSONValue] = []
        array.reserveCapacity(length)
        for index in start..<count {
            array.append((base + index).move())
        }
        count = start
        return array
    }

    /// Moves the key/value pairs from `start` on into a new object.
    mutating func popObject(from start: Int) -> JSONObject {
        let pairs = (count - start) / 2
        precondition(pairs * 2 == count - start, "object stack holds a key without a value")
        guard pairs > 0, let base else { return JSONObject() }
        var members: [JSONObject.Element] = []
        members.reserveCapacity(pairs)
        for pair in 0..<pairs {
            guard case .string(let key) = (base + start + 2 * pair).move() else {
                preconditionFailure("object key slot holds a non-string")
            }
            members.append((key: key, value: (base + start + 2 * pair + 1).move()))
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

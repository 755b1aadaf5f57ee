/// Values the history window keeps once however many of its entries name them (app ids, event labels), each with
/// the number of entries that hold it.
///
/// Invariants: a value has an id exactly while its count is above zero; a released id is reused before a new one is
/// made; at most `UInt16.max` values live at once (`retain` answers `nil` beyond, and the caller keeps its entry
/// unpacked). Bounded by the window: each live value is held by at least one retained entry. A table that
/// `remembersLast` tries the id `retain` gave last before it hashes the value (a fan-out journals one event label
/// for every app; app ids change from one record to the next, where the comparison would only cost).
struct InternTable<Value: Hashable> {
    let remembersLast: Bool
    private var last: UInt16?
    /// By id; `nil` for a freed id.
    private var values: [Value?] = []
    private var counts: [Int] = []
    private var ids: [Value: UInt16] = [:]
    private var free: [UInt16] = []

    init(remembersLast: Bool = false) {
        self.remembersLast = remembersLast
    }

    /// The id of `value`, counting one more holder; `nil` when `UInt16.max` values already live.
    mutating func retain(_ value: Value) -> UInt16? {
        if remembersLast, let id = last, values[Int(id)] == value {
            counts[Int(id)] += 1
            return id
        }
        if let id = ids[value] {
            counts[Int(id)] += 1
            if remembersLast { last = id }
            return id
        }
        let id: UInt16
        if let reused = free.popLast() {
            id = reused
            values[Int(id)] = value
            counts[Int(id)] = 1
        } else {
            guard values.count < Int(UInt16.max) else { return nil }
            id = UInt16(values.count)
            values.append(value)
            counts.append(1)
        }
        ids[value] = id
        if remembersLast { last = id }
        return id
    }

    /// Counts one holder of `id` fewer; the last one frees the value.
    mutating func release(_ id: UInt16) {
        counts[Int(id)] -= 1
        guard counts[Int(id)] == 0, let value = values[Int(id)].take() else { return }
        ids[value] = nil
        if last == id { last = nil }
        free.append(id)
    }

    /// The value of a live id.
    subscript(id: UInt16) -> Value {
        guard let value = values[Int(id)] else { preconditionFailure("InternTable: id \(id) is not live") }
        return value
    }

    /// The id of `value` if an entry holds it, without counting a holder.
    func id(of value: Value) -> UInt16? { ids[value] }

    /// How many values live (for tests: a window that dropped every entry holds none).
    var liveCount: Int { ids.count }
}

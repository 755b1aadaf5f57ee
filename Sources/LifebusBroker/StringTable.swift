/// Strings the history window keeps once however many of its entries name them (app names, event labels), each with
/// the number of entries that hold it.
///
/// Invariants: a string has an id exactly while its count is above zero; a released id is reused before a new one
/// is made; at most `UInt16.max` strings live at once (`retain` answers `nil` beyond, and the caller keeps its entry
/// unpacked). Bounded by the window: each live string is held by at least one retained entry. A table that
/// `remembersLast` tries the id `retain` gave last before it hashes the string (a fan-out journals one event label
/// for every app; app names change from one record to the next, where the comparison would only cost).
struct StringTable {
    let remembersLast: Bool
    private var last: UInt16?
    private var strings: [String] = []
    private var counts: [Int] = []
    private var ids: [String: UInt16] = [:]
    private var free: [UInt16] = []

    init(remembersLast: Bool = false) {
        self.remembersLast = remembersLast
    }

    /// The id of `string`, counting one more holder; `nil` when `UInt16.max` strings already live.
    mutating func retain(_ string: String) -> UInt16? {
        if remembersLast, let id = last, strings[Int(id)] == string {
            counts[Int(id)] += 1
            return id
        }
        if let id = ids[string] {
            counts[Int(id)] += 1
            if remembersLast { last = id }
            return id
        }
        let id: UInt16
        if let reused = free.popLast() {
            id = reused
            strings[Int(id)] = string
            counts[Int(id)] = 1
        } else {
            guard strings.count < Int(UInt16.max) else { return nil }
            id = UInt16(strings.count)
            strings.append(string)
            counts.append(1)
        }
        ids[string] = id
        if remembersLast { last = id }
        return id
    }

    /// Counts one holder of `id` fewer; the last one frees the string.
    mutating func release(_ id: UInt16) {
        counts[Int(id)] -= 1
        guard counts[Int(id)] == 0 else { return }
        ids[strings[Int(id)]] = nil
        strings[Int(id)] = ""
        if last == id { last = nil }
        free.append(id)
    }

    /// The string of a live id.
    subscript(id: UInt16) -> String { strings[Int(id)] }

    /// The id of `string` if an entry holds it, without counting a holder.
    func id(of string: String) -> UInt16? { ids[string] }

    /// How many strings live (for tests: a window that dropped every entry holds none).
    var liveCount: Int { ids.count }
}

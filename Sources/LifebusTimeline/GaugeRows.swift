/// Stacks callback gauges that would run into each other: each gauge, taken left to right, goes to the first row
/// where the previous gauge has ended; past `maximum` rows, to the row that ends first (it may then overlap; its
/// labels are left out by the `TextPlacer`).
///
/// A plain value owning, per row in use, where its last gauge ends. Invariant: `ends.count <= maximum`.
struct GaugeRows {
    private(set) var ends: [Double] = []
    let maximum: Int

    init(maximum: Int) {
        precondition(maximum >= 1, "a gauge needs a row")
        self.maximum = maximum
    }

    /// The row (0 first) for a gauge covering `start…end`; remembers where it ends.
    mutating func place(from start: Double, to end: Double) -> Int {
        if let row = ends.firstIndex(where: { $0 <= start }) {
            ends[row] = end
            return row
        }
        if ends.count < maximum {
            ends.append(end)
            return ends.count - 1
        }
        let row = ends.indices.min { ends[$0] < ends[$1] } ?? 0
        ends[row] = max(ends[row], end)
        return row
    }

    /// How many rows are in use (at least one, so an empty lane keeps its height).
    var count: Int { max(1, ends.count) }
}

/// Places text labels, left to right, in the first of a few rows where they do not run into the previous label of
/// that row (the last row takes what fits nowhere). Labels are measured by an estimate of their width in pixels.
///
/// A plain value owning, per row, where its last label ends. Invariant: in every row but the last, labels placed
/// in order of their `x` never overlap.
struct LabelRows {
    private var ends: [Double]
    private let characterWidth: Double

    init(rows: Int, characterWidth: Double) {
        precondition(rows >= 1, "a label needs a row")
        ends = Array(repeating: -Double.infinity, count: rows)
        self.characterWidth = characterWidth
    }

    /// The row (0 first) for `text` drawn from `x`; remembers where it ends.
    mutating func place(_ text: String, at x: Double) -> Int {
        let row = ends.firstIndex { $0 + 4 <= x } ?? ends.count - 1
        ends[row] = x + Double(text.count) * characterWidth
        return row
    }
}

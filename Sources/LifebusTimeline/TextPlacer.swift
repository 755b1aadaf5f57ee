/// Places a picture's labels so that no two overlap and none runs past the picture's left or right edge: each
/// label comes with the spots it may take, in order of preference, and takes the first whose `TextBox` is inside the
/// picture and clear of every label placed before it and of the areas reserved for shapes; a label with no such
/// spot is left out (its element keeps its hover title) and counted.
///
/// A plain value owning the boxes placed so far. Invariant: no two boxes in `placed` intersect, and every one lies
/// between x = 0 and `width`, at least `clearance` from each other and from the edges.
struct TextPlacer {
    /// Where a label may go: its anchor point (`y` the baseline) and how `x` anchors it.
    struct Spot {
        var x: Double
        var y: Double
        var anchor: TextBox.Anchor = .start
    }

    let width: Double
    private(set) var placed: [TextBox] = []
    private var reserved: [TextBox] = []
    /// How many labels found no spot.
    private(set) var leftOut = 0

    /// The space kept around each label (more than the 0.05 px a position loses to rounding when written).
    static let clearance = 1.0

    init(width: Double) {
        self.width = width
    }

    /// Keeps labels out of `box` (a shape drawn over them later, such as a break's cut).
    mutating func reserve(_ box: TextBox) {
        reserved.append(box)
    }

    /// The first of `spots` where `text` fits, now taken; `nil` (and counted) when none does.
    mutating func place(_ text: String, fontSize: Double, bold: Bool = false, spots: [Spot]) -> Spot? {
        place(spots.map { (text, $0) }, fontSize: fontSize, bold: bold)?.spot
    }

    /// The first of `choices` (a text, maybe shortened, and a spot for it) that fits, now taken; `nil` (and counted
    /// once) when none does.
    mutating func place(
        _ choices: [(text: String, spot: Spot)], fontSize: Double, bold: Bool = false
    ) -> (text: String, spot: Spot)? {
        for (text, spot) in choices {
            let box = TextBox(text, x: spot.x, y: spot.y, fontSize: fontSize, bold: bold, anchor: spot.anchor)
            let clear = TextBox(minX: box.minX - Self.clearance, minY: box.minY - Self.clearance,
                                maxX: box.maxX + Self.clearance, maxY: box.maxY + Self.clearance)
            if clear.minX >= 0, clear.maxX <= width, !placed.contains(where: clear.intersects),
               !reserved.contains(where: clear.intersects) {
                placed.append(box)
                return (text, spot)
            }
        }
        leftOut += 1
        return nil
    }
}

/// A picture being drawn: the SVG written so far and the labels placed so far. Every text of the picture goes
/// through `label`, so no two texts overlap and none runs past the picture's edges.
///
/// A plain value owning the writer and the placer. Invariant: every `<text>` in `svg` has its box among
/// `labels.placed`.
struct SVGCanvas {
    var svg = SVGWriter()
    var labels: TextPlacer

    init(width: Double) {
        labels = TextPlacer(width: width)
    }

    /// Draws `text` at the first of `spots` where it fits and returns that spot; `nil` when it fits nowhere and was
    /// left out.
    @discardableResult
    mutating func label(
        _ text: String, fontSize: Double, bold: Bool = false, fill: String = TimelinePalette.text,
        spots: [TextPlacer.Spot], title: String? = nil
    ) -> TextPlacer.Spot? {
        label(spots.map { (text, $0) }, fontSize: fontSize, bold: bold, fill: fill, title: title)
    }

    /// The choices for a label that may be shortened: `text` whole at each spot, then shortened with a trailing
    /// `…` to the room each spot has (and to narrower widths, to get past a neighbour), never to fewer than 8
    /// characters.
    static func shortenable(
        _ text: String, fontSize: Double, bold: Bool = false, spots: [(spot: TextPlacer.Spot, room: Double)]
    ) -> [(text: String, spot: TextPlacer.Spot)] {
        let whole = spots.map { (text, $0.spot) }
        let shortened = spots.flatMap { choice in
            [choice.room, 240, 160, 100].filter { $0 <= choice.room }.map { room in
                (TextBox.fitted(text, width: room, fontSize: fontSize, bold: bold, keepingStart: true), choice.spot)
            }
        }
        return whole + shortened.filter { $0.0 != text && $0.0.count > 8 }
    }

    /// Draws the first of `choices` (a text and a spot for it) that fits and returns its spot; `nil` when none
    /// fits and the label was left out.
    @discardableResult
    mutating func label(
        _ choices: [(text: String, spot: TextPlacer.Spot)], fontSize: Double, bold: Bool = false,
        fill: String = TimelinePalette.text, title: String? = nil
    ) -> TextPlacer.Spot? {
        guard let (text, spot) = labels.place(choices, fontSize: fontSize, bold: bold) else { return nil }
        svg.element(
            "text",
            ["x": .number(spot.x), "y": .number(spot.y), "text-anchor": .string(spot.anchor.rawValue),
             "font-size": .number(fontSize), "font-weight": bold ? "bold" : "normal", "fill": .string(fill)],
            text: text, title: title
        )
        return spot
    }
}

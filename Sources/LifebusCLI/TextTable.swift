/// Lays out rows of text in aligned columns, optionally coloured, for the CLI's people-facing output.
///
/// A plain value. In a whole table each column is as wide as its title or widest cell; colour codes are added after
/// padding so they never disturb the alignment. `line(_:style:)` lays out one row on its own with each column's
/// minimum width, for output that streams (`lifebus watch`) and cannot see the rows to come.
struct TextTable {
    enum Alignment {
        case left
        case right
    }

    struct Column {
        let title: String
        let alignment: Alignment
        let minimumWidth: Int

        init(_ title: String, _ alignment: Alignment = .left, minimumWidth: Int = 0) {
            self.title = title
            self.alignment = alignment
            self.minimumWidth = minimumWidth
        }
    }

    struct Cell: Equatable, ExpressibleByStringLiteral {
        var text: String
        var colour: TerminalStyle.Colour?

        init(_ text: String, _ colour: TerminalStyle.Colour? = nil) {
            self.text = text
            self.colour = colour
        }

        init(stringLiteral value: String) {
            self.init(value)
        }
    }

    let columns: [Column]
    var rows: [[Cell]] = []

    init(columns: [Column]) {
        self.columns = columns
    }

    /// The header line followed by one line per row.
    func render(style: TerminalStyle) -> [String] {
        var widths = columns.map(\.title.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.text.count)
            }
        }
        let header = columns.map { Cell($0.title, .bold) }
        return [layout(header, widths: widths, style: style)] + rows.map { layout($0, widths: widths, style: style) }
    }

    /// The header alone, laid out with the minimum widths (see `line(_:style:)`).
    func headerLine(style: TerminalStyle) -> String {
        line(columns.map { Cell($0.title, .bold) }, style: style)
    }

    /// One row laid out with each column's minimum width (wider cells push the rest of the line right).
    func line(_ cells: [Cell], style: TerminalStyle) -> String {
        layout(cells, widths: columns.map { max($0.minimumWidth, $0.title.count) }, style: style)
    }

    private func layout(_ cells: [Cell], widths: [Int], style: TerminalStyle) -> String {
        var parts: [String] = []
        for (index, cell) in cells.enumerated() {
            let alignment = index < columns.count ? columns[index].alignment : .left
            let width = index < widths.count ? widths[index] : 0
            let padding = String(repeating: " ", count: max(0, width - cell.text.count))
            let text = cell.colour.map { style.paint(cell.text, $0) } ?? cell.text
            switch alignment {
            case .left: parts.append(index == cells.count - 1 ? text : text + padding)
            case .right: parts.append(padding + text)
            }
        }
        return parts.joined(separator: "  ")
    }
}

/// The box a line of SVG text covers, estimated from its position, font size and an upper bound of each glyph's
/// width, the one estimator the picture's layout uses to keep labels apart (tests use it to check that no two
/// labels intersect).
///
/// A plain value. Invariant: `minX <= maxX` and `minY <= maxY`. The width bound holds for DejaVu Sans, the
/// picture's first font (per-glyph advances measured in Chromium: the widest regular lower-case letter or digit is
/// 0.64 em, upper-case 0.79 em, `m`, `W`, `…`, `→`, `%`, `@` 1 em; bold at most 0.72, 0.85 and 1.11 em); every
/// character outside the classes below counts as the widest.
public struct TextBox: Sendable, Equatable {
    /// How a text's `x` anchors it: its start, its middle or its end (SVG's `text-anchor`).
    public enum Anchor: String, Sendable {
        case start, middle, end
    }

    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    /// The box of `text` drawn at (`x`, `y`) (`y` the baseline) in `fontSize` px.
    public init(_ text: String, x: Double, y: Double, fontSize: Double, bold: Bool = false, anchor: Anchor = .start) {
        let width = Self.width(of: text, fontSize: fontSize, bold: bold)
        minX = switch anchor {
        case .start: x
        case .middle: x - width / 2
        case .end: x - width
        }
        maxX = minX + width
        minY = y - (Self.ascent * fontSize).rounded(.up)
        maxY = y + (Self.descent * fontSize).rounded(.up)
    }

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Whether the two boxes share any area (touching edges do not).
    public func intersects(_ other: TextBox) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// DejaVu Sans' ascent and descent, in em (a box takes them rounded up to whole pixels, as Chromium lays out a
    /// line of text).
    public static let ascent = 0.93
    public static let descent = 0.24

    /// An upper bound of the width of `text` in `fontSize` px.
    public static func width(of text: String, fontSize: Double, bold: Bool = false) -> Double {
        text.unicodeScalars.reduce(0) { $0 + em($1, bold: bold) } * fontSize
    }

    private static func em(_ scalar: Unicode.Scalar, bold: Bool) -> Double {
        switch scalar {
        case " ", "'", "i", "j", "l", "I", "J", ",", ".", "·", "/", ":", ";", "\\", "|", "f", "-", "(", ")", "[",
             "]", "t", "!", "r":
            bold ? 0.48 : 0.42
        case "m", "w", "M", "W":
            bold ? 1.11 : 1
        case "a"..."z", "0"..."9", "\"", "*", "_", "`", "–", "?", "$", "{", "}", "µ":
            bold ? 0.72 : 0.64
        case "A"..."Z", "&":
            bold ? 0.88 : 0.79
        default:
            bold ? 1.11 : 1
        }
    }

    /// `text` as drawn in at most `width` px: whole, or its end after a leading `…` (an app id's end tells it
    /// apart), or its start before a trailing `…` when `keepingStart`.
    public static func fitted(
        _ text: String, width: Double, fontSize: Double, bold: Bool = false, keepingStart: Bool = false
    ) -> String {
        guard Self.width(of: text, fontSize: fontSize, bold: bold) > width else { return text }
        var characters = Array(text)
        while !characters.isEmpty {
            if keepingStart { characters.removeLast() } else { characters.removeFirst() }
            let candidate = keepingStart ? String(characters) + "…" : "…" + String(characters)
            if Self.width(of: candidate, fontSize: fontSize, bold: bold) <= width { return candidate }
        }
        return ""
    }
}

import LifebusTimeline
import Testing

/// A point of a rendered picture ("x,y" in pixels) and the colour it must show.
struct ColourProbe {
    let point: String
    let rgb: (red: Int, green: Int, blue: Int)
    let what: String

    init(point: String, rgb: (red: Int, green: Int, blue: Int), what: String) {
        self.point = point
        self.rgb = rgb
        self.what = what
    }

    /// A probe whose colour is a palette entry (`#rrggbb`).
    init(point: String, hex: String, what: String) {
        self.init(point: point, rgb: TimelinePalette.rgb(hex), what: what)
    }
}

/// Reads a PNG Chromium drew through `png_pixels.py` and checks its colours.
enum ColourProbes {
    /// How far a channel may be from the wanted one (Chromium's anti-aliasing and colour management).
    static let tolerance = 12

    /// Samples `png` at every probe, then asks the `extra` queries (`ink:x0,y0,x1,y1`: the dark pixels in a box);
    /// expects each probe's colour within `tolerance` per channel. Returns the script's first line (`size W H`) and
    /// the answers to `extra`.
    /// - Throws: when the script answers fewer lines than asked (probes would go unchecked).
    static func expectColours(
        in png: String, _ probes: [ColourProbe], extra: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (size: String, extra: [String]) {
        let answer = try HelperScripts.python("png_pixels.py", [png] + probes.map(\.point) + extra)
        #expect(answer.status == 0, "\(answer.err)", sourceLocation: sourceLocation)
        let lines = answer.out.split(separator: "\n").map(String.init)
        try #require(
            lines.count == 1 + probes.count + extra.count, "png_pixels.py answered \(lines.count) lines: \(answer.out)",
            sourceLocation: sourceLocation)
        for (probe, line) in zip(probes, lines.dropFirst()) {
            let actual = line.split(separator: " ").compactMap { Int($0) }
            let close = actual.count == 3 && abs(actual[0] - probe.rgb.red) <= tolerance
                && abs(actual[1] - probe.rgb.green) <= tolerance && abs(actual[2] - probe.rgb.blue) <= tolerance
            let message: Comment = "\(probe.what) at \(probe.point): \(line), expected \(probe.rgb)"
            #expect(close, message, sourceLocation: sourceLocation)
        }
        return (lines[0], Array(lines.suffix(extra.count)))
    }
}

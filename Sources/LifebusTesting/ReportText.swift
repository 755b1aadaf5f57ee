import LifebusLifecycle

/// The text of a failed expectation: a headline, the expected and recorded sequences side by side (a diff: `-` a
/// line only expected, `+` only recorded, `~` different at the same place), the app's state, its last marks and its
/// timeline. Pure functions of their inputs.
enum ReportText {
    /// The expected and recorded lists side by side, one row per position, marked where they differ.
    static func comparison(expected: [String], recorded: [String]) -> String {
        let width = max("expected".count, expected.map(\.count).max() ?? 0)
        var lines = ["  " + pad("expected", width) + "  recorded"]
        for index in 0..<max(expected.count, recorded.count) {
            let left = index < expected.count ? expected[index] : nil
            let right = index < recorded.count ? recorded[index] : nil
            let marker =
                switch (left, right) {
                case (let left?, let right?) where left == right: " "
                case (_?, _?): "~"
                case (_?, nil): "-"
                default: "+"
                }
            lines.append(marker + " " + pad(left ?? "", width) + "  " + (right ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    /// The whole report.
    static func failure(
        _ headline: String, comparison: String?, state: LifecycleState, marks: ArraySlice<String>, timeline: [String]
    ) -> String {
        var parts = [headline]
        if let comparison { parts.append(comparison) }
        parts.append("state: \(state.rawValue)")
        parts.append("last marks: " + (marks.isEmpty ? "none" : marks.joined(separator: ", ")))
        let lines = timeline.map { "  " + $0 }.joined(separator: "\n")
        parts.append("timeline:" + (timeline.isEmpty ? " empty" : "\n" + lines))
        return parts.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

/// Durations as people type them: a non-negative decimal number and a unit, no space: `250ms`, `5s`, `1.5s`,
/// `2m`, `1h`, `100us` (also `µs`), `10ns`.
///
/// Pure and stateless. `parse` rejects negatives, a missing or unknown unit, and values beyond `Int64`
/// nanoseconds; digits finer than a nanosecond are truncated. `format` picks the largest unit that shows the
/// value exactly (`1500ms`, not `1.5s`), so `parse(format(d)) == d` for every non-negative whole-nanosecond
/// duration; a negative duration is formatted with a leading `-`, which `parse` does not accept.
public enum DurationText {
    private static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
        ("m", 60_000_000_000), ("h", 3_600_000_000_000),
    ]

    public static func parse(_ text: String) -> Duration? {
        let utf8 = Array(text.utf8)
        var position = 0
        var whole: Int64 = 0
        var sawDigit = false
        while position < utf8.count, let digit = decimalDigit(utf8[position]) {
            let (times10, overflow1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            whole = sum
            sawDigit = true
            position += 1
        }
        var fractionDigits: [Int64] = []
        if position < utf8.count, utf8[position] == UInt8(ascii: ".") {
            position += 1
            while position < utf8.count, let digit = decimalDigit(utf8[position]) {
                fractionDigits.append(digit)
                position += 1
            }
            guard !fractionDigits.isEmpty else { return nil }
        }
        guard sawDigit else { return nil }
        let suffix = String(decoding: utf8[position...], as: UTF8.self)
        guard let unit = units.first(where: { $0.suffix == suffix })?.nanoseconds else { return nil }

        let (wholeNanoseconds, overflow) = whole.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        var fractionNanoseconds: Int64 = 0
        var scale = unit
        for digit in fractionDigits {
            scale /= 10
            if scale == 0 { break }
            fractionNanoseconds += digit * scale
        }
        let (total, overflowSum) = wholeNanoseconds.addingReportingOverflow(fractionNanoseconds)
        guard !overflowSum else { return nil }
        return .nanoseconds(total)
    }

    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 || attoseconds < 0 {
            return "-" + format(.zero - duration)
        }
        if attoseconds == 0 {
            if seconds == 0 { return "0s" }
            if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
            if seconds % 60 == 0 { return "\(seconds / 60)m" }
            return "\(seconds)s"
        }
        // Sub-second part: show the whole value in the largest exact sub-second unit.
        let nanosecondsPart = attoseconds / 1_000_000_000
        for (suffix, perUnit) in [("ms", Int64(1_000_000)), ("us", 1_000), ("ns", 1)]
        where nanosecondsPart % perUnit == 0 {
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000 / perUnit)
            if !overflow { return "\(scaled + nanosecondsPart / perUnit)\(suffix)" }
        }
        return "\(seconds)s"
    }

    private static func decimalDigit(_ byte: UInt8) -> Int64? {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        return Int64(byte - UInt8(ascii: "0"))
    }
}

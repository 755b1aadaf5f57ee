/// Sizes as `lifebusd` options spell them: a whole number of bytes with an optional unit, `512KiB`, `64MiB`,
/// `1GiB` (`K`, `M`, `G`, `KB`, `MB`, `GB` are the same binary units), or `0` / `none` for no limit.
///
/// Stateless.
enum ByteSizeText {
    /// The parsed size: `.some(nil)` for no limit, `nil` when the text is not a size.
    static func parse(_ text: String) -> Int?? {
        if text == "none" || text == "0" { return .some(nil) }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        let unit = text.dropFirst(digits.count).uppercased()
        let shift: Int
        switch unit {
        case "", "B": shift = 0
        case "K", "KB", "KIB": shift = 10
        case "M", "MB", "MIB": shift = 20
        case "G", "GB", "GIB": shift = 30
        default: return nil
        }
        guard number <= Int.max >> shift else { return nil }
        return .some(number << shift)
    }
}

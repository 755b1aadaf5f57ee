/// Sizes as manifests and `lifebusd` options spell them: a whole number of bytes with an optional binary unit,
/// `512KiB`, `200MiB`, `4GiB`, `1TiB` (`K`, `M`, `G`, `T`, `KB`, `MB`, `GB`, `TB` are the same binary units; `B`
/// or no unit is bytes). No sign, no fraction, no space.
///
/// Stateless. Never traps: a number or product beyond `Int.max` is refused like any other bad text.
public enum ByteSize {
    /// The size in bytes, or `nil` when `text` is not a size (or overflows).
    public static func parse(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        guard let shift = shifts[text.dropFirst(digits.count).uppercased()] else { return nil }
        guard number <= Int.max >> shift else { return nil }
        return number << shift
    }

    /// `bytes` in the largest binary unit that keeps it whole: `200MiB`, `1536KiB`, `7B`.
    public static func text(_ bytes: Int) -> String {
        for (unit, shift) in [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)]
        where bytes != 0 && bytes & ((1 << shift) - 1) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return "\(bytes)B"
    }

    private static let shifts: [String: Int] = [
        "": 0, "B": 0,
        "K": 10, "KB": 10, "KIB": 10,
        "M": 20, "MB": 20, "MIB": 20,
        "G": 30, "GB": 30, "GIB": 30,
        "T": 40, "TB": 40, "TIB": 40,
    ]
}

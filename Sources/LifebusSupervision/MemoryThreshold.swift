/// Where a pressure level starts: a fraction of the device's memory (`0.8`, `80%`) or a size (`3GiB`).
///
/// A plain value. Text with a `.` or a `%` is a fraction (0 < f ≤ 1); any other text is a `ByteSize`.
public enum MemoryThreshold: Sendable, Equatable, CustomStringConvertible {
    case fraction(Double)
    case bytes(Int)

    /// Parses `--memory-warning-at` / `--memory-critical-at` text; `nil` when it is neither a fraction in (0, 1]
    /// nor a positive size.
    public static func parse(_ text: String) -> MemoryThreshold? {
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent > 0, percent <= 100 else { return nil }
            return .fraction(percent / 100)
        }
        if text.contains(".") {
            guard let fraction = Double(text), fraction > 0, fraction <= 1 else { return nil }
            return .fraction(fraction)
        }
        guard let bytes = ByteSize.parse(text), bytes > 0 else { return nil }
        return .bytes(bytes)
    }

    /// The threshold in bytes on a device of `deviceMemory` bytes.
    public func bytes(ofDevice deviceMemory: Int) -> Int {
        switch self {
        case .fraction(let fraction): Int((Double(deviceMemory) * fraction).rounded(.down))
        case .bytes(let bytes): bytes
        }
    }

    public var description: String {
        switch self {
        case .fraction(let fraction): "\(fraction)"
        case .bytes(let bytes): ByteSize.text(bytes)
        }
    }
}

/// `lifebus run --shard K/N`: this runner's part, `index` (from 1) of `count` parts. A plain value.
///
/// Invariant: `1 ≤ index ≤ count`. `init?(_:)` reads what `text` writes and refuses anything else (`0/3`, `4/3`,
/// `2`, `2/`, signs, spaces).
public struct ShardSelection: Sendable, Hashable {
    public let index: Int
    public let count: Int

    /// The forms accepted, for help and errors.
    public static let form = "K/N with 1 ≤ K ≤ N (e.g. 2/4)"

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.number(parts[0]), let count = Self.number(parts[1]),
            index >= 1, index <= count
        else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N`.
    public var text: String { "\(index)/\(count)" }

    /// A positive decimal number of plain digits, at most six of them.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}

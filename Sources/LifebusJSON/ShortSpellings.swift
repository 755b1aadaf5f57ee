/// The spellings (raw values) of a string enum's cases, each of at most 16 bytes, packed zero-padded in two words:
/// text read from a line finds its case in one copy and two word compares per case, with no string made.
///
/// Immutable once built (`Sendable`); built once per enum (a `static let` of the reader that uses it). Invariant:
/// `entries` holds every case of `Choice`, in declaration order.
@_spi(RawJSON) public struct ShortSpellings<Choice: RawRepresentable & CaseIterable & Sendable>: Sendable
where Choice.RawValue == String {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline let low: UInt64
        @usableFromInline let high: UInt64
        @usableFromInline let count: Int
        @usableFromInline let choice: Choice
    }

    @usableFromInline let entries: [Entry]

    public init() {
        entries = Choice.allCases.map { choice in
            var spelling = choice.rawValue
            return spelling.withUTF8 { bytes in
                precondition(bytes.count <= 16, "ShortSpellings: \(choice.rawValue) is longer than 16 bytes")
                let (low, high) = Self.words(UnsafeRawBufferPointer(bytes))
                return Entry(low: low, high: high, count: bytes.count, choice: choice)
            }
        }
    }

    /// The case spelled exactly `text`; `nil` when none is.
    @inlinable public func choice(spelledBy text: UnsafeRawBufferPointer) -> Choice? {
        guard text.count <= 16 else { return nil }
        let (low, high) = Self.words(text)
        for entry in entries where entry.low == low && entry.high == high && entry.count == text.count {
            return entry.choice
        }
        return nil
    }

    /// `text` (at most 16 bytes) zero-padded into two words.
    @inlinable static func words(_ text: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: text) }
        return words
    }
}

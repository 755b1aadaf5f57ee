import ArgumentParser

/// `lifebus run --seeds A..B`: the fuzzer's seeds from A to B, both included. A plain value.
///
/// Invariant: `A ≤ B` and the range holds at most `maxCount` seeds (a campaign is split across runners by range, so
/// one runner's share stays a bounded job).
struct SeedRange: Hashable, ExpressibleByArgument {
    static let maxCount: UInt64 = 100_000

    let range: ClosedRange<UInt64>

    init?(argument: String) {
        guard let dots = argument.firstRange(of: ".."),
            let low = UInt64(argument[..<dots.lowerBound]), let high = UInt64(argument[dots.upperBound...]),
            low <= high, high - low < Self.maxCount
        else { return nil }
        range = low...high
    }

    var defaultValueDescription: String { "\(range.lowerBound)..\(range.upperBound)" }
}

import LifebusJSON
import LifebusLifecycle
import Testing

@testable import LifebusScenario

/// `--shard K/N`: the form read and refused; every item runs in exactly one shard; without timings an item's shard
/// depends on nothing but its key (stable across runners and item sets); with timings the split is the
/// longest-processing-time one, deterministic and within the greedy bound; timings read from a run report.
@Suite struct ShardPlanTests {
    static let items: [ShardItem] = (1...13).flatMap { file in
        Profile.allCases.map { ShardItem(file: "scenarios/s\(file).yaml", scenario: "scenario \(file)", profile: $0) }
    }

    @Test(arguments: ["1/1", "1/3", "3/3", "12/40"])
    func theFormIsReadAndWrittenBack(text: String) throws {
        let shard = try #require(ShardSelection(text))
        #expect(shard.text == text)
    }

    @Test(arguments: [
        "0/3", "4/3", "3", "3/", "/3", "+1/3", "1/+3", " 1/3", "1/3 ", "1/0", "1/2/3", "a/b", "1/9999999",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(ShardSelection(text) == nil)
    }

    @Test(arguments: [1, 2, 3, 7])
    func everyItemRunsInExactlyOneShard(count: Int) throws {
        for timings in [nil, Self.timings(Self.items)] {
            let shards = try (1...count).map { index in
                ShardPlan.items(Self.items, in: try #require(ShardSelection("\(index)/\(count)")), timings: timings)
            }
            let all = shards.flatMap { $0 }
            #expect(all.count == Self.items.count)
            #expect(Set(all) == Set(Self.items))
        }
    }

    @Test func withoutTimingsAnItemsShardDependsOnlyOnItsKey() {
        let whole = ShardPlan.assignment(Self.items, count: 4, timings: nil)
        let half = ShardPlan.assignment(Array(Self.items.prefix(20)), count: 4, timings: nil)
        for item in Self.items.prefix(20) { #expect(whole[item] == half[item]) }
        // The hash is FNV-1a's, fixed by its definition (not Swift's per-process seeded Hasher).
        #expect(ShardPlan.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(ShardPlan.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Set(whole.values) == [1, 2, 3, 4])
    }

    @Test func withTimingsTheSplitIsDeterministicAndWithinTheGreedyBound() throws {
        var generator = SplitMix(seed: 7)
        for _ in 0..<50 {
            let count = Int(generator.next() % 5) + 2
            var seconds: [ShardItem: Double] = [:]
            for item in Self.items { seconds[item] = Double(generator.next() % 10_000) / 100 }
            let timings = RunTimings(seconds: seconds)
            let owners = ShardPlan.assignment(Self.items, count: count, timings: timings)
            #expect(owners == ShardPlan.assignment(Self.items.reversed(), count: count, timings: timings))
            var load = [Double](repeating: 0, count: count + 1)
            for item in Self.items { load[owners[item]!] += seconds[item]! }
            // Graham's bound for a greedy split: the average load plus (1 - 1/N) of the longest item.
            let total = seconds.values.reduce(0, +)
            let bound = total / Double(count) + (1 - 1 / Double(count)) * seconds.values.max()!
            #expect(load.max()! <= bound + 1e-9)
        }
    }

    @Test func anItemWithoutARecordedTimeCountsAsTheMean() {
        let a = ShardItem(file: "a.yaml", scenario: "a", profile: .ios7)
        let b = ShardItem(file: "b.yaml", scenario: "b", profile: .ios7)
        let c = ShardItem(file: "c.yaml", scenario: "c", profile: .ios7)
        let owners = ShardPlan.assignment([a, b, c], count: 2, timings: RunTimings(seconds: [a: 10, b: 2]))
        // a (10) to shard 1, then c (the mean, 6) to shard 2, then b (2) to shard 2.
        #expect(owners == [a: 1, c: 2, b: 2])
    }

    @Test func timingsAreReadFromARunReport() throws {
        let report: JSONValue = ["runs": .array([
            ["file": "a.yaml", "scenario": "a", "profile": "ios4", "seconds": 1.5],
            ["file": "a.yaml", "scenario": "a", "profile": "ios7", "seconds": .integer(2)],
        ])]
        let timings = try RunTimings(report: report)
        #expect(timings.seconds == [
            ShardItem(file: "a.yaml", scenario: "a", profile: .ios4): 1.5,
            ShardItem(file: "a.yaml", scenario: "a", profile: .ios7): 2,
        ])
        #expect(throws: RunTimings.Failure.self) { try RunTimings(report: ["runs": "no"]) }
        #expect(throws: RunTimings.Failure.self) {
            try RunTimings(
                report: ["runs": .array([["file": "a.yaml", "scenario": "a", "profile": "ios9", "seconds": 1]])])
        }
        #expect(throws: RunTimings.Failure.self) {
            try RunTimings(
                report: ["runs": .array([["file": "a.yaml", "scenario": "a", "profile": "ios7", "seconds": -1]])])
        }
    }

    static func timings(_ items: [ShardItem]) -> RunTimings {
        RunTimings(seconds: Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1, Double($0 % 7) + 0.5) }))
    }

    /// A small deterministic generator for the property runs.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

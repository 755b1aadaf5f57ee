public import LifebusLifecycle

/// One unit of work `--shard` spreads: a scenario of a file under one profile. Its `key` names it the same way on
/// every runner (the file as given on the command line, the scenario's name, the profile).
public struct ShardItem: Sendable, Hashable {
    public var file: String
    public var scenario: String
    public var profile: Profile

    public init(file: String, scenario: String, profile: Profile) {
        self.file = file
        self.scenario = scenario
        self.profile = profile
    }

    public var key: String { "\(file)\u{1F}\(scenario)\u{1F}\(profile.rawValue)" }
}

/// How `lifebus run --shard K/N` splits the items: stable, so every runner of a CI matrix, given the same files,
/// profiles and timings, agrees on who runs what, and each item runs in exactly one shard.
///
/// - Without timings, an item's shard is its key's FNV-1a hash modulo N: the same item always lands in the same
///   shard, whatever else the run holds.
/// - With timings (each item's last recorded seconds, `RunTimings`), the items are dealt longest first, each to the
///   shard with the least work so far (ties to the lower shard; equal times in key order) — the longest-processing-time
///   rule (within 4/3 of the best split). An item without a recorded time counts as the mean of those with one.
/// Pure.
public enum ShardPlan {
    /// The items of `items` that shard `shard` runs, in their given order.
    public static func items(
        _ items: [ShardItem], in shard: ShardSelection, timings: RunTimings? = nil
    ) -> [ShardItem] {
        let owners = assignment(items, count: shard.count, timings: timings)
        return items.filter { owners[$0] == shard.index }
    }

    /// Each item's shard (from 1).
    public static func assignment(_ items: [ShardItem], count: Int, timings: RunTimings?) -> [ShardItem: Int] {
        var owners: [ShardItem: Int] = [:]
        guard let timings, !timings.seconds.isEmpty else {
            for item in items { owners[item] = Int(fnv1a(item.key) % UInt64(count)) + 1 }
            return owners
        }
        let known = items.compactMap { timings.seconds[$0] }
        let mean = known.isEmpty ? 1 : known.reduce(0, +) / Double(known.count)
        let unique = Array(Set(items))
        let ordered = unique.map { ($0, timings.seconds[$0] ?? mean) }.sorted { a, b in
            a.1 != b.1 ? a.1 > b.1 : a.0.key < b.0.key
        }
        var load = [Double](repeating: 0, count: count)
        for (item, seconds) in ordered {
            let lightest = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
            load[lightest] += seconds
            owners[item] = lightest + 1
        }
        return owners
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes: fixed by its definition, the same in every build and on every
    /// machine (Swift's `Hasher` is seeded per process).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

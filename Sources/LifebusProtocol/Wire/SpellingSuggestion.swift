/// "Did you mean …?" for names people type — subcommands, options, enumeration values — by edit distance.
/// Stateless and pure; shared by `lifebus` and `lifebusd`.
public enum SpellingSuggestion {
    /// The name within edit distance 2 (or a third of its length, if more) of `word`, the closest; `nil` if none
    /// is close, or if several are equally close (no guess is better than a wrong one).
    public static func closest(to word: String, among names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: distance(word, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }),
            scored.filter({ $0.distance == best.distance }).count == 1
        else { return nil }
        return best.distance <= max(2, best.name.count / 3) ? best.name : nil
    }

    /// The Levenshtein distance between two strings, by characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

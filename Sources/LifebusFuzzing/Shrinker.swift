/// Delta debugging over a failing sequence: the shortest sequence it can find that still fails.
///
/// Generic over the element and the predicate (`fails`: does this sequence still fail the same way?), which it
/// calls on candidates only. Three moves, repeated until none helps: drop chunks (halves, quarters, … as ddmin's
/// complements; runs of up to three at every offset), then single elements, then simplify single elements
/// (`simplify` offers smaller variants of one element, e.g. a shorter clock advance). The result fails, and is
/// 1-minimal: dropping any one element of it makes it pass (given a deterministic predicate). Stateless.
public enum Shrinker {
    /// Shrinks `failing` (which must fail) under `fails`; `simplify` gives an element's simpler variants, simplest
    /// first (none by default).
    public static func shrink<Element>(
        _ failing: [Element],
        simplify: (Element) -> [Element] = { _ in [] },
        fails: ([Element]) throws -> Bool
    ) rethrows -> [Element] {
        var current = failing
        while true {
            var changed = false
            current = try dropChunks(current, fails: fails, changed: &changed)
            current = try simplifyEach(current, simplify: simplify, fails: fails, changed: &changed)
            if !changed { return current }
        }
    }

    /// ddmin's complement step: for chunk sizes from half the sequence down to one, drop each chunk whose removal
    /// still fails. Chunks of up to `slidingSize` elements are tried at every offset, not only at multiples of
    /// their size, so two steps that only make sense together (a call and its answer) go together wherever they
    /// are.
    private static func dropChunks<Element>(
        _ sequence: [Element], fails: ([Element]) throws -> Bool, changed: inout Bool
    ) rethrows -> [Element] {
        var current = sequence
        var sizes: Set<Int> = Set(1...slidingSize)
        var half = current.count / 2
        while half > slidingSize {
            sizes.insert(half)
            half /= 2
        }
        for size in sizes.sorted(by: >) where size <= current.count {
            var start = 0
            while start < current.count {
                var candidate = current
                candidate.removeSubrange(start..<min(start + size, current.count))
                if try fails(candidate) {
                    current = candidate
                    changed = true
                } else {
                    start += size > slidingSize ? size : 1
                }
            }
        }
        return current
    }

    /// Chunks this small are tried at every offset.
    static let slidingSize = 3

    /// Replaces elements by their first simpler variant that still fails.
    private static func simplifyEach<Element>(
        _ sequence: [Element], simplify: (Element) -> [Element], fails: ([Element]) throws -> Bool,
        changed: inout Bool
    ) rethrows -> [Element] {
        var current = sequence
        for index in current.indices {
            for variant in simplify(current[index]) {
                var candidate = current
                candidate[index] = variant
                if try fails(candidate) {
                    current = candidate
                    changed = true
                    break
                }
            }
        }
        return current
    }
}

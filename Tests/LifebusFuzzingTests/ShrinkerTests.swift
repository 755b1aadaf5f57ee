import LifebusFuzzing
import PropertyBased
import Testing

/// The shrinker's contract, property-tested: the result still fails, keeps its elements in order, and is
/// 1-minimal (dropping any one element makes it pass).
@Suite struct ShrinkerTests {
    /// Fails while the sequence holds every needed number, in order (a subsequence test: monotone, like a bug
    /// that needs a few events in a row).
    private static func holds(_ needed: [Int], in sequence: [Int]) -> Bool {
        var rest = needed[...]
        for element in sequence where element == rest.first { rest = rest.dropFirst() }
        return rest.isEmpty
    }

    @Test func theResultStillFailsAndIsOneMinimal() async {
        let input = Gen.int(in: 0...30).array(of: 1...60)
        await propertyCheck(count: 200, input: input, Gen.int(in: 1...4)) { sequence, size in
            let needed = Array(sequence.enumerated().filter { $0.offset % max(sequence.count / size, 1) == 0 }
                .map(\.element).prefix(size))
            let shrunk = Shrinker.shrink(sequence) { candidate in Self.holds(needed, in: candidate) }
            #expect(Self.holds(needed, in: shrunk))
            #expect(shrunk == needed, "a subsequence bug shrinks to exactly what it needs")
            for index in shrunk.indices {
                var smaller = shrunk
                smaller.remove(at: index)
                #expect(!Self.holds(needed, in: smaller))
            }
        }
    }

    @Test func elementsAreSimplifiedWhileTheyStillFail() {
        // Fails while the sum is at least 100: the elements shrink by halving to what the sum needs.
        let shrunk = Shrinker.shrink([400, 3, 7], simplify: { $0 > 1 ? [$0 / 2] : [] }) { $0.reduce(0, +) >= 100 }
        #expect(shrunk == [100])
    }

    @Test func aSequenceThatNeedsNothingShrinksToNothing() {
        #expect(Shrinker.shrink([1, 2, 3]) { _ in true }.isEmpty)
    }
}

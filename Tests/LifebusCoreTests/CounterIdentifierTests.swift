import LifebusCore
import LifebusLifecycle
import PropertyBased
import Testing

/// `CounterIdentifier`'s cheap hash: sets and dictionaries keyed by counted identifiers behave like a reference, and
/// sequential numbers spread over the bucket bits.
@Suite("counter identifiers hash cheaply and correctly")
struct CounterIdentifierTests {
    /// One random operation on a table of `TimerID`s: the low bits choose insert, remove or look up, the rest the key
    /// (from a small range, so operations meet the same keys).
    @Test("a Dictionary keyed by TimerID agrees with an association list under random operations")
    func dictionaryAgreesWithReference() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...(1 << 12)).array(of: 1...400)) { numbers in
            var table: [TimerID: Int] = [:]
            var reference: [(key: UInt64, value: Int)] = []
            for (step, number) in numbers.enumerated() {
                let key = UInt64(number >> 2) % 97
                switch number & 3 {
                case 0, 1:
                    table[TimerID(key)] = step
                    reference.removeAll { $0.key == key }
                    reference.append((key, step))
                case 2:
                    let removed = table.removeValue(forKey: TimerID(key))
                    let expected = reference.first { $0.key == key }?.value
                    #expect(removed == expected)
                    reference.removeAll { $0.key == key }
                default:
                    #expect(table[TimerID(key)] == reference.first { $0.key == key }?.value)
                }
            }
            #expect(table.count == reference.count)
            for entry in reference {
                #expect(table[TimerID(entry.key)] == entry.value)
            }
        }
    }

    @Test("a Set of EventIDs holds each number once")
    func setHoldsEachOnce() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...500).array(of: 0...300)) { numbers in
            let set = Set(numbers.map { EventID(UInt64($0)) })
            #expect(set.count == Set(numbers).count)
            #expect(numbers.allSatisfy { set.contains(EventID(UInt64($0))) })
        }
    }

    @Test("equal numbers hash equal under every seed; a seed changes the hash")
    func equalHashEqual() {
        for seed in [0, 1, -1, 0x5eed, Int.max] {
            for value: UInt64 in [0, 1, 2, 1 << 32, .max] {
                #expect(CallbackID(value)._rawHashValue(seed: seed) == CallbackID(value)._rawHashValue(seed: seed))
            }
        }
        #expect(counterHash(7, seed: 1) != counterHash(7, seed: 2))
    }

    /// A table masks the hash's low bits: 4,096 sequential counters in 4,096 buckets should fill about 1 − 1/e of
    /// them (63 %), as a random function does; an identity-like hash would fill all or cluster.
    @Test("sequential counters spread over the low bits like a random function", arguments: [0, 0x1234_5678])
    func sequentialCountersSpread(seed: Int) {
        let buckets = 4096
        var used = [Bool](repeating: false, count: buckets)
        for value in 1...UInt64(buckets) {
            used[counterHash(value, seed: seed) & (buckets - 1)] = true
        }
        let filled = Double(used.filter { $0 }.count) / Double(buckets)
        #expect(abs(filled - 0.632) < 0.03, "filled \(filled)")
    }
}

import LifebusLifecycle
import PropertyBased
import Testing

/// `AppID`'s digest-backed hash: tables keyed by apps agree with tables keyed by their strings, canonically equal
/// names (which `String` calls equal) stay one key, and a changed `rawValue` is hashed anew.
@Suite("app identities hash through their digest")
struct AppIDHashTests {
    /// Names from a small set, so random operations meet the same keys; "é" is spelled both precomposed and as `e`
    /// plus a combining accent, which `String` (and so `AppID`) calls equal.
    static let names = [
        "com.example.A", "com.example.B", "caf\u{E9}", "cafe\u{301}", "x", "", "com.example.A.long.name",
    ]

    @Test("a Dictionary keyed by AppID agrees with one keyed by String under random operations")
    func dictionaryAgreesWithStrings() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...(1 << 10)).array(of: 1...300)) { numbers in
            var table: [AppID: Int] = [:]
            var reference: [String: Int] = [:]
            for (step, number) in numbers.enumerated() {
                let name = Self.names[(number >> 2) % Self.names.count]
                switch number & 3 {
                case 0, 1:
                    table[AppID(name)] = step
                    reference[name] = step
                case 2:
                    #expect(table.removeValue(forKey: AppID(name)) == reference.removeValue(forKey: name))
                default:
                    #expect(table[AppID(name)] == reference[name])
                }
            }
            #expect(table.count == reference.count)
            for (name, value) in reference {
                #expect(table[AppID(name)] == value)
            }
        }
    }

    @Test("canonically equal names are one app: equal, with equal hashes under every seed")
    func canonicalEquivalence() {
        let precomposed = AppID("caf\u{E9}")
        let decomposed = AppID("cafe\u{301}")
        #expect(precomposed == decomposed)
        for seed in [0, 1, -1, 0x5eed] {
            #expect(precomposed._rawHashValue(seed: seed) == decomposed._rawHashValue(seed: seed))
        }
        #expect(precomposed.hashValue == decomposed.hashValue)
        #expect(Set([precomposed, decomposed]).count == 1)
    }

    @Test("different names differ, and a table's seed changes the hash")
    func differentNames() {
        #expect(AppID("com.example.A") != AppID("com.example.B"))
        #expect(AppID("a")._rawHashValue(seed: 1) != AppID("a")._rawHashValue(seed: 2))
    }

    @Test("a changed rawValue is hashed anew")
    func mutationRehashes() {
        var app = AppID("com.example.A")
        app.rawValue = "com.example.B"
        #expect(app == AppID("com.example.B"))
        #expect(app.hashValue == AppID("com.example.B").hashValue)
        #expect(app != AppID("com.example.A"))
        #expect([AppID("com.example.B"): 1][app] == 1)
    }
}

@_spi(RawJSON) import LifebusJSON
import PropertyBased
import Testing

@Suite struct JSONWriterTests {
    @Test func writesCompactTextInMemberOrder() {
        let value: JSONValue = ["z": 1, "a": [true, nil, "s"], "m": ["k": -2.5]]
        #expect(value.jsonText == #"{"z":1,"a":[true,null,"s"],"m":{"k":-2.5}}"#)
    }

    @Test func escapesQuotesBackslashesAndEveryControlCharacter() {
        let control = String(decoding: (0..<0x20).map { UInt8($0) } + [0x7F], as: UTF8.self)
        let text = JSONValue.string("\"\\/" + control + "é").jsonText
        #expect(text.hasPrefix(#""\"\\/\u0000\u0001"#))
        #expect(text.contains(#"\b\t\n\u000b\f\r"#))
        #expect(text.hasSuffix(#"\u001f\u007fé""#))
        #expect(!text.utf8.contains { $0 < 0x20 || $0 == 0x7F })
    }

    @Test func writesIntegersExactly() {
        let values: [Int64] = [0, 7, -7, 10, 1_234_567_890, .max, .min]
        #expect(JSONValue.array(values.map(JSONValue.integer)).jsonText ==
            "[0,7,-7,10,1234567890,9223372036854775807,-9223372036854775808]")
    }

    /// The digit writer counts digits from the bit length: every power of ten and its neighbours are the edges.
    @Test func writesEveryDigitCountExactly() {
        var values: [Int64] = [0, 1, -1, 9, 99, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power + 1, -power, -power - 1]
        }
        var rng = SystemRandomNumberGenerator()
        values += (0..<10_000).map { _ in Int64.random(in: .min ... .max, using: &rng) >> Int64.random(in: 0...63) }
        let mismatches = values.filter { JSONValue.integer($0).jsonText != String($0) }
        #expect(mismatches.isEmpty)
    }

    @Test func writesDoublesSoTheyParseBackAsDoubles() throws {
        let values: [Double] = [1, -0.0, 1e20, 1e-7, 0.1, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 123_456_789]
        for double in values {
            let text = JSONValue.double(double).jsonText
            let reparsed = try JSONParser.parse(text)
            #expect(reparsed == .double(double), "\(text)")
            if case .double(let back) = reparsed { #expect(back.sign == double.sign) }
        }
    }

    @Test func writesNonFiniteDoublesAsNull() {
        let nonFinite: JSONValue = [.double(.infinity), .double(-.infinity), .double(.nan)]
        #expect(nonFinite.jsonText == "[null,null,null]")
    }

    /// The writer's fast path for short decimals (clock milliseconds, budgets) must print what `description` does.
    @Test func writesDoublesAsSwiftsShortestForm() {
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.001, 0.000_999, 0.0001, 1, 10.5, 5000, 999_999_999.999_999, 1e9, 0.1 + 0.2,
                                1.000_000_5, 123.456_789_1, .ulpOfOne, 1 + .ulpOfOne]
        for _ in 0..<100_000 {
            values.append(Double(UInt64.random(in: 0..<1_000_000_000_000_000, using: &rng)) / 1e6)  // nanoseconds
            values.append(Double(UInt64.random(in: 0..<100_000_000, using: &rng)) / 1e3)
            values.append(Double.random(in: 0..<2e9, using: &rng))
            values.append(Double(UInt64.random(in: 0..<2_000_000_000, using: &rng)))  // whole: a budget
        }
        var mismatches: [String] = []
        for value in values where JSONValue.double(value).jsonText != value.description && mismatches.count < 5 {
            mismatches.append("\(value.description) written as \(JSONValue.double(value).jsonText)")
        }
        #expect(mismatches.isEmpty)
    }

    /// The journal's times written from whole nanoseconds are the text of their milliseconds as a double, whole
    /// milliseconds (budgets) included.
    @Test func writesNanosecondsAsTheirMillisecondsDouble() {
        var rng = SystemRandomNumberGenerator()
        var values: [Int64] = [0, 1, 999, 1_000, 1_000_000, 5_000_000_000, 999_999_999_999_999, 1_000_000_000_000_000]
        for _ in 0..<100_000 {
            values.append(Int64.random(in: 0..<1_000_000_000_000_000, using: &rng))
            values.append(Int64.random(in: 0..<1_000_000, using: &rng) * 1_000_000)
        }
        var mismatches: [String] = []
        for value in values where mismatches.count < 5 {
            var fromInteger: [UInt8] = []
            JSONWriter.append(to: &fromInteger, atMost: JSONCursor.numberBound) { $0.milliseconds(nanoseconds: value) }
            let expected = JSONValue.double(Double(value) / 1e6).jsonText
            if String(decoding: fromInteger, as: UTF8.self) != expected {
                let written = String(decoding: fromInteger, as: UTF8.self)
                mismatches.append("\(value) ns written as \(written), not \(expected)")
            }
        }
        #expect(mismatches.isEmpty)
    }

    @Test func appendsToAnExistingBuffer() {
        var buffer: [UInt8] = Array("x=".utf8)
        JSONValue.string("y").write(to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"x="y""#)
    }

    @Test func writeThenParseGivesTheSameValue() async {
        await propertyCheck(count: 500, input: RandomJSON.generator) { value in
            let bytes = value.jsonBytes
            #expect(!bytes.contains { $0 < 0x20 || $0 == 0x7F }, "raw control character in \(value)")
            #expect((try? JSONParser.parse(bytes, maxDepth: 64)) == value)
        }
    }
}

/// Random JSON values for property checks: every case, nasty strings, extreme numbers, nesting up to 6.
enum RandomJSON {
    static let generator = Generator<JSONValue, Shrink.None<JSONValue>> { rng in
        value(&rng, depth: 0)
    }

    static let alphabet: [String] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "€", "𝄞", "\u{10FFFF}",
        "\u{2028}", "\u{FEFF}",
    ]

    static func value(_ rng: inout some RandomNumberGenerator, depth: Int) -> JSONValue {
        let choice = Int.random(in: 0..<(depth < 6 ? 8 : 6), using: &rng)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &rng) >> Int64.random(in: 0...63, using: &rng))
        case 3: return .double(double(&rng))
        case 4, 5: return .string(string(&rng))
        case 6:
            return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let key = string(&rng)
                object[key] = value(&rng, depth: depth + 1)
            }
            return .object(object)
        }
    }

    static func string(_ rng: inout some RandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }

    static func double(_ rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            let bits = UInt64.random(in: .min ... .max, using: &rng)
            let double = Double(bitPattern: bits)
            return double.isFinite ? double : 0.5
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 8
        default: return Double.random(in: -1e300...1e300, using: &rng)
        }
    }
}

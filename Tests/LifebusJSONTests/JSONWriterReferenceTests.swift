import LifebusJSON
import PropertyBased
import Testing

/// The hand-tuned writers (digits four at a time, the short-decimal fast path, strings copied a word at a time)
/// against plain reference implementations, on random inputs shaped like what the broker writes and on edges.
@Suite struct JSONWriterReferenceTests {
    /// What the writer must produce for a string: the quotes, `\"`, `\\`, the short escapes, `\u00XX` for every
    /// other byte below 0x20 and for 0x7F, every other byte as it is.
    static func referenceText(_ string: String) -> [UInt8] {
        var text: [UInt8] = [0x22]
        for byte in string.utf8 {
            switch byte {
            case 0x22: text += Array(#"\""#.utf8)
            case 0x5C: text += Array(#"\\"#.utf8)
            case 0x0A: text += Array(#"\n"#.utf8)
            case 0x0D: text += Array(#"\r"#.utf8)
            case 0x09: text += Array(#"\t"#.utf8)
            case 0x08: text += Array(#"\b"#.utf8)
            case 0x0C: text += Array(#"\f"#.utf8)
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                text += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: text.append(byte)
            }
        }
        return text + [0x22]
    }

    /// Strings of 0–40 characters, mostly plain ASCII (app ids, labels) with a special byte or a multi-byte
    /// character now and then, at every offset from a word boundary.
    static let strings = Generator<String, Shrink.None<String>> { rng in
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_ /")
        let special: [Character] = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{8}", "\u{c}", "\u{1f}", "\u{7f}", "é",
                                    "€", "𝄞"]
        let length = Int.random(in: 0...40, using: &rng)
        let density = Int.random(in: 0...3, using: &rng)  // none, rare, some, many
        return String((0..<length).map { _ in
            Int.random(in: 0..<12, using: &rng) < density * density ? special.randomElement(using: &rng)!
                : plain.randomElement(using: &rng)!
        })
    }

    @Test func writesStringsAsTheReferenceDoes() async {
        await propertyCheck(count: 20_000, input: Self.strings) { string in
            #expect(JSONValue.string(string).jsonBytes == Self.referenceText(string), "\(string.debugDescription)")
            // Inside an object, after other text: the word copies must not disturb what is around them.
            let object: JSONValue = ["k": .string(string), string: .integer(1)]
            let expected = Array("{".utf8) + Self.referenceText("k") + [0x3A] + Self.referenceText(string) + [0x2C]
                + Self.referenceText(string) + Array(":1}".utf8)
            #expect(object.jsonBytes == expected)
        }
    }

    @Test func writesIntegersAsDescriptionDoes() async {
        let integers = Generator<Int64, Shrink.None<Int64>> { rng in
            Int64.random(in: .min ... .max, using: &rng) >> Int64.random(in: 0...63, using: &rng)
        }
        await propertyCheck(count: 20_000, input: integers) { value in
            #expect(JSONValue.integer(value).jsonText == String(value))
        }
    }

    /// Milliseconds as the broker makes them (nanoseconds / 1e6, sub-millisecond handler times, whole budgets) and
    /// doubles of every magnitude: `description`'s text either way.
    @Test func writesDoublesAsDescriptionDoes() async {
        let doubles = Generator<Double, Shrink.None<Double>> { rng in
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: Double(UInt64.random(in: 0..<1_000_000, using: &rng)) / 1e6
            case 1: Double(UInt64.random(in: 0..<1_000_000_000_000_000, using: &rng)) / 1e6
            case 2: Double(UInt64.random(in: 0..<100_000, using: &rng))
            case 3: Double.random(in: 0..<1e10, using: &rng) / Double(1 << Int.random(in: 0...40, using: &rng))
            default: Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &rng))
                * (Bool.random(using: &rng) ? 1 : -1)
            }
        }
        await propertyCheck(count: 50_000, input: doubles) { value in
            #expect(JSONValue.double(value).jsonText == value.description)
        }
    }
}

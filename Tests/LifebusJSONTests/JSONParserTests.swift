import LifebusJSON
import Testing

@Suite struct JSONParserTests {
    func kind(of text: [UInt8]) -> JSONParseError.Kind? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch {
            return error.kind
        }
    }

    func kind(of text: String) -> JSONParseError.Kind? {
        kind(of: Array(text.utf8))
    }

    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#" {"a":[1,-2.5,true,false,null,"x\n\u00e9\ud834\udd1e"],"b":{}} "#)
        let expected: JSONValue = ["a": [1, -2.5, true, false, nil, "x\né𝄞"], "b": [:]]
        #expect(value == expected)
    }

    @Test func acceptsNestingUpToTheMaximumDepth() throws {
        _ = try JSONParser.parse(Self.nested(32))
        _ = try JSONParser.parse(String(repeating: "{\"k\":", count: 31) + "[]" + String(repeating: "}", count: 31))
    }

    @Test func rejectsNestingBeyondTheMaximumDepth() {
        #expect(kind(of: Self.nested(33)) == .tooDeep)
        #expect(kind(of: String(repeating: "{\"k\":", count: 33) + "1" + String(repeating: "}", count: 33)) == .tooDeep)
    }

    @Test func rejectsHugeNestingWithoutExhaustingTheStack() {
        #expect(kind(of: String(repeating: "[", count: 100_000)) == .tooDeep)
        #expect(throws: Never.self) { try JSONParser.parse(Self.nested(2_000), maxDepth: 2_000) }
    }

    @Test func honoursACustomMaximumDepth() {
        #expect(kind(of: "[]") == nil)
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[[]]", maxDepth: 1) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[]", maxDepth: 0) }
        #expect(throws: Never.self) { try JSONParser.parse("7", maxDepth: 0) }
    }

    @Test(arguments: ["1e400", "-1e400", "2e22222", "123123e100000", "0.4e00669999999999999999999999999999999"])
    func rejectsNumbersThatOverflowToInfinity(text: String) {
        #expect(kind(of: text) == .numberNotFinite)
    }

    @Test func acceptsNumbersThatUnderflowToZero() throws {
        #expect(try JSONParser.parse("123e-10000000") == .double(0))
        #expect(try JSONParser.parse("1e-400") == .double(0))
    }

    @Test func keepsIntegersThatFitInt64AsIntegers() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .integer(.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(.min))
        #expect(try JSONParser.parse("-0") == .integer(0))
        #expect(try JSONParser.parse("9223372036854775808") == .double(9.223372036854775808e18))
        #expect(try JSONParser.parse("-9223372036854775809") == .double(-9.223372036854775809e18))
        #expect(try JSONParser.parse("1.0") == .double(1))
        #expect(try JSONParser.parse("1e2") == .double(100))
    }

    @Test(arguments: [
        "0.1", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "123456789012345678901234567890",
        "0.30000000000000004", "9007199254740993", "1.5e-7", "-0.0", "4.35", "1e22", "1e23",
    ])
    func parsesDoublesToTheCorrectlyRoundedValue(text: String) throws {
        let parsed = try JSONParser.parse(text)
        if case .integer = parsed { return }
        #expect(parsed.doubleValue == Double(text))
    }

    @Test(arguments: ["-", "01", "1.", ".5", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "1.e3"])
    func rejectsMalformedNumbers(text: String) {
        #expect(kind(of: text) != nil)
    }

    @Test(arguments: [
        [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xE6, 0x97], [0x80], [0xFF], [0xC3], [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
    func rejectsInvalidUTF8InStrings(sequence: [UInt8]) {
        #expect(kind(of: [0x22] + sequence + [0x22]) == .invalidUTF8)
    }

    @Test func acceptsEveryUTF8Length() throws {
        #expect(try JSONParser.parse("\"aé€𝄞\u{10FFFF}\"") == .string("aé€𝄞\u{10FFFF}"))
    }

    @Test(arguments: [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\udd1e\ud834""#, #""\ud800x""#])
    func rejectsInvalidSurrogateEscapes(text: String) {
        #expect(kind(of: text) == .invalidSurrogate)
    }

    @Test func rejectsUnknownEscapesAndRawControlCharacters() {
        #expect(kind(of: #""\x""#) == .invalidEscape)
        #expect(kind(of: #""\u12G4""#) == .invalidEscape)
        #expect(kind(of: "\"a\nb\"") == .controlCharacterInString)
        #expect(kind(of: [0x22, 0x00, 0x22]) == .controlCharacterInString)
    }

    @Test func rejectsTrailingDataButAllowsTrailingWhitespace() throws {
        #expect(try JSONParser.parse(" \t\r\n{}\n ") == [:])
        #expect(kind(of: "{} x") == .trailingData)
        #expect(kind(of: "1 2") == .trailingData)
        #expect(kind(of: "{}\u{0}") == .trailingData)
    }

    @Test func rejectsAByteOrderMark() {
        #expect(kind(of: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) == .unexpectedCharacter)
    }

    @Test func rejectsEmptyAndTruncatedInput() {
        #expect(kind(of: "") == .unexpectedEnd)
        #expect(kind(of: "  ") == .unexpectedEnd)
        #expect(kind(of: "[1,") == .unexpectedEnd)
        #expect(kind(of: "{\"a\"") == .unexpectedEnd)
        #expect(kind(of: "\"abc") == .unexpectedEnd)
        #expect(kind(of: "tru") == .unexpectedEnd)
        #expect(kind(of: "nul1") == .unexpectedCharacter)
    }

    @Test func reportsTheOffsetOfTheProblem() {
        #expect(throws: JSONParseError(.unexpectedCharacter, at: 4)) { try JSONParser.parse("[1, x]") }
        #expect(throws: JSONParseError(.trailingData, at: 3)) { try JSONParser.parse("{} ]") }
    }

    @Test func parsesFromARawBuffer() throws {
        let bytes: [UInt8] = Array("[\"ok\"]".utf8)
        let value = try bytes.withUnsafeBytes { buffer in try JSONParser.parse(buffer) }
        #expect(value == ["ok"])
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        #expect(throws: JSONParseError(.unexpectedEnd, at: 0)) { try JSONParser.parse(empty) }
    }

    @Test func keepsRepeatedKeysAndAnswersTheLastOnLookup() throws {
        let value = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(value["a"] == 3)
        #expect(value.objectValue?.count == 3)
        #expect(value.jsonText == #"{"a":1,"b":2,"a":3}"#)
    }
}

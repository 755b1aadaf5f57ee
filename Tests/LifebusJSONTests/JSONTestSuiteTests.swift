import Foundation
import LifebusJSON
import Testing

/// JSONTestSuite (Nicolas Seriot): every `y_` text accepted, every `n_` text rejected, every `i_` text decided as
/// `Protocol/README.md` documents.
@Suite struct JSONTestSuiteTests {
    /// The documented decisions for the implementation-defined cases: `true` = accepted.
    static let implementationDefined: [String: Bool] = [
        "i_number_double_huge_neg_exp.json": true,  // 123.456e-789 underflows to 0.0
        "i_number_huge_exp.json": false,  // overflows to infinity
        "i_number_neg_int_huge_exp.json": false,  // -1e+9999: -infinity
        "i_number_pos_double_huge_exp.json": false,  // 1.5e+9999: infinity
        "i_number_real_neg_overflow.json": false,  // -123123e100000: -infinity
        "i_number_real_pos_overflow.json": false,  // 123123e100000: infinity
        "i_number_real_underflow.json": true,  // 123e-10000000 underflows to 0.0
        "i_number_too_big_neg_int.json": true,  // beyond Int64: a finite double
        "i_number_too_big_pos_int.json": true,  // beyond Int64: a finite double
        "i_number_very_big_negative_int.json": true,  // beyond Int64: a finite double
        "i_object_key_lone_2nd_surrogate.json": false,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_1st_valid_surrogate_2nd_invalid.json": false,
        "i_string_UTF-16LE_with_BOM.json": false,
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_incomplete_surrogate_and_escape_valid.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_incomplete_surrogates_escape_valid.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_string_invalid_surrogate.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_inverted_surrogates_U+1D11E.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_second_surrogate.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        "i_string_utf16BE_no_BOM.json": false,
        "i_string_utf16LE_no_BOM.json": false,
        "i_structure_500_nested_arrays.json": false,  // deeper than 32
        "i_structure_UTF-8_BOM_empty_object.json": false,  // no BOM
    ]

    static func parse(_ name: String) throws -> Result<JSONValue, JSONParseError> {
        let bytes = try Fixtures.bytes(Fixtures.jsonTestSuite.appendingPathComponent(name))
        do {
            return .success(try JSONParser.parse(bytes))
        } catch {
            return .failure(error)
        }
    }

    @Test func theFixturesArePresent() {
        #expect(Fixtures.files(in: Fixtures.jsonTestSuite, prefix: "y_").count > 90)
        #expect(Fixtures.files(in: Fixtures.jsonTestSuite, prefix: "n_").count > 180)
    }

    @Test(arguments: Fixtures.files(in: Fixtures.jsonTestSuite, prefix: "y_"))
    func acceptsEveryValidText(name: String) throws {
        let outcome = try Self.parse(name)
        if case .failure(let error) = outcome {
            Issue.record("\(name) rejected: \(error)")
        }
    }

    @Test(arguments: Fixtures.files(in: Fixtures.jsonTestSuite, prefix: "n_"))
    func rejectsEveryInvalidText(name: String) throws {
        let outcome = try Self.parse(name)
        if case .success(let value) = outcome {
            Issue.record("\(name) accepted as \(value)")
        }
    }

    @Test(arguments: Fixtures.files(in: Fixtures.jsonTestSuite, prefix: "i_"))
    func decidesEveryImplementationDefinedTextAsDocumented(name: String) throws {
        guard let expected = Self.implementationDefined[name] else {
            Issue.record("no documented decision for \(name)")
            return
        }
        let outcome = try Self.parse(name)
        switch outcome {
        case .success(let value):
            #expect(expected, "\(name) accepted as \(value)")
        case .failure(let error):
            #expect(!expected, "\(name) rejected: \(error)")
        }
    }

    /// `Protocol/README.md`'s table of the implementation-defined cases says what this parser does.
    @Test func theImplementationDefinedTableInTheSpecMatchesTheTests() throws {
        let readme = String(decoding: try Fixtures.bytes(Fixtures.protocolReadme), as: UTF8.self)
        for (file, accepted) in Self.implementationDefined {
            let stem = String(file.dropLast(".json".count))
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(stem)`") }
            let cells = row.map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
            #expect(cells?[1].hasPrefix(accepted ? "accept" : "reject") == true, "README row for \(stem)")
        }
    }

    @Test func everyDocumentedDecisionHasItsFixture() {
        let present = Set(Fixtures.files(in: Fixtures.jsonTestSuite, prefix: "i_"))
        #expect(Set(Self.implementationDefined.keys) == present)
    }

    @Test(arguments: Fixtures.files(in: Fixtures.jsonTestSuite, prefix: "y_"))
    func everyValidTextSurvivesWriteThenParse(name: String) throws {
        guard case .success(let value) = try Self.parse(name) else { return }
        let reparsed = try JSONParser.parse(value.jsonBytes)
        #expect(reparsed == value)
    }
}

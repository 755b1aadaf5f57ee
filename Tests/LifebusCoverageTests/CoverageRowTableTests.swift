import Foundation
import LifebusCoverage
import Testing

/// The coverage row table is `Protocol/lifecycle.md`'s table: the same ids, in the same order, with the same
/// situations word for word, so a row added to, removed from or reworded in the document fails here.
@Suite struct CoverageRowTableTests {
    private static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Protocol/lifecycle.md")

    /// Every `| Rnn | situation |`, `| Snn | situation |` and `| Bnn | situation |` line of the document, in order.
    private static func documentRows() throws -> [(id: String, situation: String)] {
        let text = try String(contentsOf: document, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count > 3, ["R", "S", "B"].contains(cells[1].prefix(1)), cells[1].count > 1,
                  cells[1].dropFirst().allSatisfy(\.isNumber) else {
                return nil
            }
            return (cells[1], cells[2])
        }
    }

    @Test func theTableIsTheDocumentsTable() throws {
        let rows = try Self.documentRows()
        #expect(rows.count > 70, "the document's table was read")
        #expect(CoverageRow.all.map(\.id) == rows.map(\.id))
        for (row, line) in zip(CoverageRow.all, rows) where row.situation != line.situation {
            Issue.record("\(row.id): the table says \"\(row.situation)\", lifecycle.md \"\(line.situation)\"")
        }
    }

    @Test func everyRowThatNoJournalShowsSaysWhy() {
        for case let (id, .notInJournal(reason)) in CoverageRow.all.map({ ($0.id, $0.evidence) }) {
            #expect(!reason.isEmpty, "\(id)")
        }
        #expect(LifecycleCoverage.notInJournal.count < CoverageRow.all.count / 2, "most rows are observable")
    }
}

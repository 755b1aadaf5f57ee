import LifebusJSON
import LifebusProtocol
import Testing

@testable import LifebusBrokerMachine

/// `history` pages: the newest entries before a cursor, bounded in count and bytes, never empty while one qualifies.
@Suite struct HistoryPageTests {
    private func marks(_ count: Int, padding: Int = 0) -> [JournalEntry] {
        let data: JSONObject? = padding > 0 ? ["pad": .string(String(repeating: "x", count: padding))] : nil
        return (1...count).map { seq in
            .mark(MarkRecord(seq: Int64(seq), app: "com.x", pid: nil, name: "m\(seq)", data: data, atMs: 0, wallMs: 0))
        }
    }

    @Test func theDefaultPageIsTheNewestThousand() {
        let page = HistoryPage.select(marks(1500), HistoryParams())
        #expect(page.entries.map(\.seq) == Array(501...1500))
        #expect(page.more)
    }

    @Test func beforeSeqPagesBackAndTheLastPageSaysNoMore() {
        let entries = marks(25)
        let first = HistoryPage.select(entries, HistoryParams(limit: 10))
        #expect(first.entries.map(\.seq) == Array(16...25) && first.more)
        let second = HistoryPage.select(entries, HistoryParams(limit: 10, beforeSeq: 16))
        #expect(second.entries.map(\.seq) == Array(6...15) && second.more)
        let third = HistoryPage.select(entries, HistoryParams(limit: 10, beforeSeq: 6))
        #expect(third.entries.map(\.seq) == Array(1...5) && !third.more)
        let none = HistoryPage.select(entries, HistoryParams(beforeSeq: 1))
        #expect(none.entries.isEmpty && !none.more)
        #expect(HistoryPage.select([], HistoryParams()) == HistoryResult(entries: [], more: false))
    }

    @Test func aPageStopsBeforeItsByteBoundButNeverEmpty() {
        let entries = marks(10, padding: 1000)
        let size = entries[0].encodedSize
        let page = HistoryPage.select(entries, HistoryParams(), maxBytes: size * 3 + size / 2)
        #expect(page.entries.map(\.seq) == [8, 9, 10] && page.more)
        let tiny = HistoryPage.select(entries, HistoryParams(), maxBytes: 1)
        #expect(tiny.entries.map(\.seq) == [10] && tiny.more, "one entry always fits")
    }
}

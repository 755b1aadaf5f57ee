import LifebusLifecycle
public import LifebusProtocol

/// Picks one page of `history` from the retained entries: the newest ones before a cursor, bounded in count and in
/// bytes, so no answer grows with the journal (Protocol/README.md §11.4).
///
/// Stateless and pure. Invariant: a page is never empty while an eligible entry exists (one entry always fits:
/// entries are far smaller than `maxBytes`), and `more` is true exactly when eligible entries older than the page
/// were left out.
enum HistoryPage {
    /// The page of `entries` (oldest first, already of the asked app) for `params`.
    static func select(
        _ entries: [JournalEntry], _ params: HistoryParams, maxBytes: Int = HistoryParams.maxPageBytes
    ) -> HistoryResult {
        let limit = params.limit ?? HistoryParams.maxLimit
        var end = entries.endIndex
        if let before = params.beforeSeq {
            end = entries.lastIndex { $0.seq < before }.map { $0 + 1 } ?? entries.startIndex
        }
        var start = end
        var bytes = 0
        while start > entries.startIndex, end - start < limit {
            let size = entries[start - 1].encodedSize
            guard start == end || bytes + size <= maxBytes else { break }
            bytes += size
            start -= 1
        }
        return HistoryResult(entries: Array(entries[start..<end]), more: start > entries.startIndex)
    }
}

extension JournalEntry {
    /// The length of the entry's journal line, newline included (what pages and the in-memory window count).
    public var encodedSize: Int {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return bytes.count + 1
    }
}

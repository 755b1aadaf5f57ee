public import LifebusProtocol

extension RPCPeer {
    /// Reads the broker's history page by page (`history` answers at most `HistoryParams.maxLimit` entries and
    /// `HistoryParams.maxPageBytes` per page, newest first, with `more` when older ones remain), asking each time
    /// for the entries before the oldest one seen so far. `completion` runs once: with the entries of `app` (all
    /// apps when `nil`), oldest first, at most the newest `limit` of them (all the broker retains when `nil`), or
    /// with the error that ended the reading.
    public func requestHistory(
        app: String? = nil,
        limit: Int? = nil,
        _ completion: @escaping (Result<[JournalEntry], RPCError>) -> Void
    ) {
        var pages: [[JournalEntry]] = []
        var count = 0
        func fetch(before: Int64?) {
            let wanted = min(limit.map { $0 - count } ?? HistoryParams.maxLimit, HistoryParams.maxLimit)
            let params = HistoryParams(app: app, limit: wanted, beforeSeq: before)
            request(LifebusMethod.history, params: params.json) { answer in
                do throws(RPCError) {
                    let page = try HistoryResult(json: try answer.get())
                    pages.append(page.entries)
                    count += page.entries.count
                    if page.more, let oldest = page.entries.first, limit.map({ count < $0 }) ?? true {
                        fetch(before: oldest.seq)
                        return
                    }
                    completion(.success(pages.reversed().flatMap { $0 }))
                } catch {
                    completion(.failure(error))
                }
            }
        }
        fetch(before: nil)
    }
}

import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The typed requests a scenario run makes.
extension ScenarioSession {
    func fire(_ params: FireParams, timeout: Duration) -> Result<FireResult, RPCError> {
        fireResult(call(LifebusMethod.fire, params.json, timeout: timeout))
    }

    func fireResult(_ answer: Result<JSONValue, RPCError>) -> Result<FireResult, RPCError> {
        answer.flatMap { value in Result { () throws(RPCError) in try FireResult(json: value) } }
    }

    /// Waits until `app` is in one of `states`, for at most `timeout` in real time.
    func wait(app: String, states: [LifecycleState], timeout: Duration) -> Result<WaitResult, RPCError> {
        call(LifebusMethod.wait, WaitParams(app: app, states: states).json, timeout: timeout).flatMap { value in
            Result { () throws(RPCError) in try WaitResult(json: value) }
        }
    }

    /// The app's status (`nil` when the broker does not know it).
    func status(app: String) -> Result<AppStatus?, RPCError> {
        switch call(LifebusMethod.status, StatusParams(app: app).json, timeout: Self.quick) {
        case .success(let value):
            Result { () throws(RPCError) in try StatusResult(json: value).apps.first }
        case .failure(let error) where error.lifebusCode == .appNotFound:
            .success(nil)
        case .failure(let error):
            .failure(error)
        }
    }

    func status() -> Result<StatusResult, RPCError> {
        call(LifebusMethod.status, StatusParams().json, timeout: Self.quick).flatMap { value in
            Result { () throws(RPCError) in try StatusResult(json: value) }
        }
    }

    /// The journal entries after `seq`, oldest first: pages of `history`, newest first, until one reaches `seq`.
    func entries(after seq: Int64) -> Result<[JournalEntry], RPCError> {
        var pages: [[JournalEntry]] = []
        var before: Int64?
        while true {
            let params = HistoryParams(limit: HistoryParams.maxLimit, beforeSeq: before)
            let page: HistoryResult
            switch call(LifebusMethod.history, params.json, timeout: Self.quick).flatMap({ value in
                Result { () throws(RPCError) in try HistoryResult(json: value) }
            }) {
            case .success(let result): page = result
            case .failure(let error): return .failure(error)
            }
            pages.append(page.entries.filter { $0.seq > seq })
            guard page.more, let oldest = page.entries.first, oldest.seq > seq + 1 else { break }
            before = oldest.seq
        }
        return .success(pages.reversed().flatMap { $0 })
    }

    /// The newest journal entry's number (0 before any).
    func lastSeq() -> Result<Int64, RPCError> {
        call(LifebusMethod.history, HistoryParams(limit: 1).json, timeout: Self.quick).flatMap { value in
            Result { () throws(RPCError) in try HistoryResult(json: value).entries.last?.seq ?? 0 }
        }
    }

    /// How long a request that the broker answers at once may take.
    static let quick = Duration.seconds(10)
}

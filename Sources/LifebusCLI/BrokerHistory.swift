import LifebusProtocol

/// The running broker's whole history (all it retains, run records included), read page by page; shared by the
/// commands that work on history as a whole (`trace`, `coverage`). Stateless.
enum BrokerHistory {
    static func fetch(socketPath: String) throws -> [JournalEntry] {
        var entries: [JournalEntry] = []
        try BrokerCall.run(path: socketPath) { peer, _, finish in
            peer.requestHistory { answer in
                switch answer {
                case .success(let all):
                    entries = all
                    finish(.success)
                case .failure(let error):
                    finish(.refused(error))
                }
            }
        }
        return entries
    }
}

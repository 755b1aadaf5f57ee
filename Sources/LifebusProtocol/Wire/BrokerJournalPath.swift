/// Where the broker appends its journal when not told (`lifebusd --journal`), so tools can find it without a
/// broker. Pure: the caller passes the environment and uid in.
///
/// `$XDG_STATE_HOME/lifebus/journal.jsonl` when `XDG_STATE_HOME` is set and non-empty, else `journal.jsonl` in the
/// private folder beside the default socket (`BrokerSocketPath.privateDirectory`: `/tmp/lifebus-<uid>`).
public enum BrokerJournalPath {
    public static func resolve(environment: [String: String], uid: UInt32) -> String {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            return "\(state)/lifebus/journal.jsonl"
        }
        return BrokerSocketPath.privateDirectory(environment: environment, uid: uid) + "/journal.jsonl"
    }
}

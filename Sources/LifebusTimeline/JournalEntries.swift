public import LifebusJSON
public import LifebusProtocol

/// Reads journal entries as the timeline needs them, tolerating record kinds it does not know: a newer broker may
/// write other `type`s, which are skipped rather than failing the read.
///
/// Stateless.
public enum JournalEntries {
    /// The entry `json` holds, or `nil` when it is a record of a `type` this version does not know. A transition,
    /// mark, run, process, task, push or protected-data record that is malformed, or a value without a string
    /// `type`, throws.
    public static func decode(_ json: JSONValue) throws(RPCError) -> JournalEntry? {
        let known = [
            TransitionRecord.type, MarkRecord.type, RunRecord.type, ProcessRecord.type, BackgroundTaskRecord.type,
            PushDeliveryRecord.type, ProtectedDataRecord.type,
        ]
        if let type = json["type"]?.stringValue, !known.contains(type) {
            return nil
        }
        return try JournalEntry(json: json)
    }

    /// The entries of the last broker run in a journal that holds several: from the last run record that opens a
    /// run (`reason` `start`), or, in a journal written before run records existed (a broker then numbered its
    /// entries from 1 again on each start), after the last place `seq` does not increase.
    public static func lastRun(_ entries: [JournalEntry]) -> [JournalEntry] {
        let start = entries.lastIndex { if case .run(let run) = $0 { run.reason == .start } else { false } }
        if let start {
            return Array(entries[start...])
        }
        guard let restart = entries.indices.dropFirst().last(where: { entries[$0].seq <= entries[$0 - 1].seq }) else {
            return entries
        }
        return Array(entries[restart...])
    }
}

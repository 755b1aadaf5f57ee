public import LifebusProtocol

/// Reads journal entries as the timeline needs them, tolerating record kinds it does not draw: the journal may
/// hold other `type`s (a newer broker writes `{"type":"run",…}`), which are skipped rather than failing the read.
///
/// Stateless.
public enum JournalEntries {
    /// The entry `json` holds, or `nil` when it is a well-formed record of another `type`. A transition or mark
    /// that is malformed, or a value without a string `type`, throws.
    public static func decode(_ json: JSONValue) throws(RPCError) -> JournalEntry? {
        if let type = json["type"]?.stringValue, type != TransitionRecord.type, type != MarkRecord.type {
            return nil
        }
        return try JournalEntry(json: json)
    }

    /// The entries of the last broker run in a journal that holds several (a broker numbers its entries from 1
    /// again when it starts, appending to the same file): those after the last place `seq` does not increase.
    public static func lastRun(_ entries: [JournalEntry]) -> [JournalEntry] {
        guard let restart = entries.indices.dropFirst().last(where: { entries[$0].seq <= entries[$0 - 1].seq }) else {
            return entries
        }
        return Array(entries[restart...])
    }
}

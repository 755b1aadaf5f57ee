import LifebusProtocol

extension JournalEntry {
    /// The length of the entry's journal line, newline included (what the in-memory window counts).
    var encodedSize: Int {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return bytes.count + 1
    }
}

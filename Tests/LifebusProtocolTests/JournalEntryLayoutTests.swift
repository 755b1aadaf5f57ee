import LifebusProtocol
import Testing

/// The broker keeps `HistoryParams.retained` journal entries in memory: an entry must cost what a transition record
/// costs (plus the case tag), not what the largest, rare kinds of record would.
@Suite struct JournalEntryLayoutTests {
    @Test func anEntryIsTheSizeOfATransitionRecord() {
        #expect(MemoryLayout<JournalEntry>.size <= MemoryLayout<TransitionRecord>.size + 8)
        // What it guards against: inline, the largest kind (and the case tag beside it) would set every entry's size.
        let largest = max(MemoryLayout<RunRecord>.size, MemoryLayout<ProcessRecord>.size)
        let transition = MemoryLayout<TransitionRecord>.size
        #expect(largest + 1 > transition + 8, "\(largest) vs \(transition)")
    }
}

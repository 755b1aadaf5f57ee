import Testing

@testable import LifebusJournal

/// What a starting broker finds at the end of its journal: the torn last line to cut, and the `seq` to go on from.
@Suite struct JournalRecoveryTests {
    private func scan(_ text: String) -> JournalRecovery {
        let bytes = Array(text.utf8)
        return JournalRecovery.scan(size: bytes.count) { offset, count in Array(bytes[offset..<(offset + count)]) }
    }

    private func line(_ seq: Int, padding: Int = 0) -> String {
        "{\"type\":\"mark\",\"seq\":\(seq),\"name\":\"\(String(repeating: "x", count: padding))\"}\n"
    }

    @Test func aWholeJournalIsLeftAsItIsAndGoesOnFromItsLastSeq() {
        #expect(scan(line(1) + line(2) + line(3)) == JournalRecovery(cutBytes: 0, lastSequence: 3))
    }

    @Test func aTornLastLineIsCutAndTheSeqComesFromTheLineBeforeIt() {
        let torn = "{\"type\":\"mark\",\"seq\":4,\"na"
        #expect(scan(line(1) + line(2) + torn) == JournalRecovery(cutBytes: torn.utf8.count, lastSequence: 2))
    }

    @Test func aFileThatIsOneTornLineIsCutWhole() {
        #expect(scan("{\"type\":\"ma") == JournalRecovery(cutBytes: 11, lastSequence: nil))
    }

    @Test func linesLongerThanTheWindowAreFoundByWideningIt() {
        let long = JournalRecovery.initialWindow * 3
        let text = line(7) + line(8, padding: long) + String(repeating: "y", count: long)
        #expect(scan(text) == JournalRecovery(cutBytes: long, lastSequence: 8))
    }

    @Test func aBrokenWholeLineIsPassedOverForTheLastOneWithASeq() {
        #expect(scan(line(5) + "not json\n" + "\n") == JournalRecovery(cutBytes: 0, lastSequence: 5))
    }

    @Test func aJournalWithoutAnySeqStartsFromNothing() {
        #expect(scan("garbage\n") == JournalRecovery(cutBytes: 0, lastSequence: nil))
    }

    @Test func aFileThatCannotBeReadIsNeverCut() {
        let recovery = JournalRecovery.scan(size: 1 << 20) { _, _ in [] }
        #expect(recovery == JournalRecovery(cutBytes: 0, lastSequence: nil))
    }
}

import LifebusCore
import Testing

@testable import LifebusBrokerMachine

/// The event book hands each finished event's records text to its answer and keeps that room for the next event:
/// once the answer is dropped, the next event's records are written where the last one's were (no allocation), and
/// an answer still held elsewhere is never written over.
@Suite struct EventBookTests {
    private static func record(_ n: Int) -> [UInt8] { Array(#"{"type":"transition","seq":\#(n)}"#.utf8) }

    private static func storage(_ text: [UInt8]) -> UnsafeRawPointer? {
        text.withUnsafeBytes { $0.baseAddress }
    }

    /// Runs one event of `records` records; returns its finished text.
    private static func event(_ book: inout EventBook, records: Int, seq: inout Int64) -> [UInt8] {
        let id = book.begin(label: "memory-warning", session: SessionID(1), ticket: Ticket(1))
        for _ in 0..<records { _ = book.causeOfCallback(id) }
        for _ in 0..<records {
            seq += 1
            record(Int(seq)).withUnsafeBufferPointer { book.add(seq: seq, text: $0, to: id) }
        }
        return book.finish(id).text
    }

    @Test func aSmallEventReusesTheRoomOfTheLastOnceItsAnswerIsDropped() {
        var book = EventBook()
        var seq: Int64 = 0
        let first = Self.event(&book, records: 1, seq: &seq)
        let firstStorage = Self.storage(first)
        #expect(first == Self.record(1))
        _ = consume first  // the answer is written and dropped
        let second = Self.event(&book, records: 1, seq: &seq)
        #expect(second == Self.record(2))
        #expect(Self.storage(second) == firstStorage)
    }

    @Test func anAnswerStillHeldIsNeverWrittenOver() {
        var book = EventBook()
        var seq: Int64 = 0
        let held = Self.event(&book, records: 2, seq: &seq)
        let second = Self.event(&book, records: 2, seq: &seq)
        #expect(held == Self.record(1) + [UInt8(ascii: ",")] + Self.record(2))
        #expect(second == Self.record(3) + [UInt8(ascii: ",")] + Self.record(4))
        #expect(Self.storage(second) != Self.storage(held))
    }

    @Test func aSmallEventBetweenTwoLargeOnesLeavesTheLargeRoomToTheNext() {
        var book = EventBook()
        var seq: Int64 = 0
        let records = EventBook.spareTextMinimum / Self.record(1000).count + 1
        let large = Self.event(&book, records: records, seq: &seq)
        #expect(large.capacity >= EventBook.spareTextMinimum)
        let largeStorage = Self.storage(large)
        _ = consume large
        let small = Self.event(&book, records: 1, seq: &seq)
        #expect(small == Self.record(Int(seq)))
        _ = consume small
        let again = Self.event(&book, records: records * 3 / 4, seq: &seq)  // fits the room the first one made
        #expect(again.count > EventBook.spareTextMinimum / 2)
        #expect(Self.storage(again) == largeStorage)
    }
}

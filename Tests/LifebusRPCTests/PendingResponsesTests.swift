import LifebusProtocol
@testable import LifebusRPC
import Testing

/// The sending-order table of waiting handlers: answers in order, overtaking answers, ids it never gave, and the
/// handlers left when the connection ends.
@Suite struct PendingResponsesTests {
    @Test func answersInAnyOrderFindTheirHandlerOnce() {
        var pending = PendingResponses<Int>()
        for number in 1...100 { pending.add(Int64(number), number) }
        #expect(pending.remove(.number(1)) == 1)
        #expect(pending.remove(.number(50)) == 50)  // overtakes 2…49
        #expect(pending.remove(.number(50)) == nil)
        #expect(pending.remove(.string("2")) == nil)
        #expect(pending.remove(.number(101)) == nil)
        for number in 2...30 { #expect(pending.remove(.number(Int64(number))) == number) }
        #expect(pending.removeAll() == Array(31...49) + Array(51...100))
        #expect(pending.isEmpty)
    }

    @Test func aLongRunOfAnsweredRequestsIsCompactedWhileOthersWait() {
        var pending = PendingResponses<Int>()
        pending.add(0, 0)  // never answered: the oldest stays in front of everything after it
        for number in 1...10_000 {
            pending.add(Int64(number), number)
            #expect(pending.remove(.number(Int64(number))) == number)
        }
        pending.add(10_001, 10_001)
        for number in 10_002...10_100 {
            pending.add(Int64(number), number)
            #expect(pending.remove(.number(10_001)) == (number == 10_002 ? 10_001 : nil))
        }
        #expect(pending.remove(.number(0)) == 0)
        #expect(pending.removeAll() == Array(10_002...10_100))
    }
}

import LifebusProtocol
@testable import LifebusRPC
import Testing

/// The sending-order table of waiting handlers: answers in order, overtaking answers, ids it never gave, and the
/// handlers left when the connection ends.
@Suite struct PendingResponsesTests {
    /// Handlers that note their request's number in `answered` when called.
    final class Calls {
        var answered: [Int] = []
        func handler(_ number: Int) -> PendingResponses.Handler {
            .value { _ in self.answered.append(number) }
        }

        /// Calls `handler` as the peer would with an answer.
        static func call(_ handler: PendingResponses.Handler?) {
            guard case .value(let handler)? = handler else { return }
            handler(.success(.null))
        }
    }

    /// Calls the handler `remove` finds for `number` (if any) and returns the numbers answered so far.
    private func answer(_ number: Int64, in pending: inout PendingResponses, _ calls: Calls) -> Int? {
        Calls.call(pending.remove(.number(number)))
        return calls.answered.popLast()
    }

    @Test func answersInAnyOrderFindTheirHandlerOnce() {
        let calls = Calls()
        var pending = PendingResponses()
        for number in 1...100 { pending.add(Int64(number), calls.handler(number)) }
        #expect(answer(1, in: &pending, calls) == 1)
        #expect(answer(50, in: &pending, calls) == 50)  // overtakes 2…49
        #expect(answer(50, in: &pending, calls) == nil)
        #expect(pending.remove(.string("2")) == nil)
        #expect(answer(101, in: &pending, calls) == nil)
        for number in 2...30 { #expect(answer(Int64(number), in: &pending, calls) == number) }
        for handler in pending.removeAll() { Calls.call(handler) }
        #expect(calls.answered == Array(31...49) + Array(51...100))
        #expect(pending.isEmpty)
    }

    /// One request out at a time (a broker's app peer): each add starts over at the front once all are answered.
    @Test func oneRequestAtATimeReusesTheFront() {
        let calls = Calls()
        var pending = PendingResponses()
        for number in 1...40 {
            pending.add(Int64(number), calls.handler(number))
            #expect(answer(Int64(number), in: &pending, calls) == number)
            #expect(pending.isEmpty)
        }
        pending.add(41, calls.handler(41))
        pending.add(42, calls.handler(42))
        #expect(answer(42, in: &pending, calls) == 42)
        #expect(answer(41, in: &pending, calls) == 41)
        #expect(answer(41, in: &pending, calls) == nil)
    }

    @Test func answeredRequestsAreCompactedAwayWhileTheOldestWaits() {
        let calls = Calls()
        var pending = PendingResponses()
        pending.add(0, calls.handler(0))  // never answered until the end: everything after it is searched for
        for number in 1...1_000 {
            pending.add(Int64(number), calls.handler(number))
            if number > 3 { #expect(answer(Int64(number - 3), in: &pending, calls) == number - 3) }
        }
        #expect(answer(0, in: &pending, calls) == 0)
        for number in 998...1_000 { #expect(answer(Int64(number), in: &pending, calls) == number) }
        #expect(pending.isEmpty)
    }
}

import LifebusCore
import LifebusLifecycle
import PropertyBased
import Testing

@testable import LifebusBrokerMachine

/// The schedule's table of armed timers answers as a plain hash table would, whichever way its keys come: numbered
/// in order and cancelled in order (the window's case), re-armed long after, far ahead, or without a number.
@Suite struct ArmedTimersTests {
    typealias Armed = ArmedTimers<BrokerMachine.Deadline>.Armed

    private func armed<Key>(_ order: UInt64) -> ArmedTimers<Key>.Armed {
        ArmedTimers<Key>.Armed(deadline: Instant(nanoseconds: order * 1_000), order: order)
    }

    /// A key from a random number: mostly the next counter, sometimes an older one, one far ahead, or a deadline
    /// without a counter.
    private static func key(_ number: Int, next: inout UInt64) -> BrokerMachine.Deadline {
        switch number % 16 {
        case 0...8:
            next += 1
            return .hello(SessionID(next))
        case 9, 10: return .hello(SessionID(next - UInt64(number >> 4) % min(next + 1, 300)))
        case 11: next += 65 + UInt64(number >> 4) % 200; return .hello(SessionID(next))
        case 12: return .device
        case 13: return .wait(number: UInt64(number >> 4) % 3, app: AppID("com.example.A"))
        default: return .advanceSettle
        }
    }

    @Test func randomArmsAndCancelsAgreeWithAHashTable() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...(1 << 24)).array(of: 1...800)) { numbers in
            var table = ArmedTimers<BrokerMachine.Deadline>()
            var reference: [BrokerMachine.Deadline: Armed] = [:]
            var next: UInt64 = 0
            for (step, number) in numbers.enumerated() {
                let key = Self.key(number, next: &next)
                if number & (1 << 23) == 0 {
                    let value: Armed = armed(UInt64(step))
                    #expect(table.updateValue(value, forKey: key) == reference.updateValue(value, forKey: key))
                    #expect(table.windowSlots <= max(64, 2 * table.count))
                } else {
                    // Cancels mostly hit what is armed: the oldest numbered timer, as answers come in order.
                    let oldest = reference.keys.filter { $0.counter != nil }.min { $0.counter! < $1.counter! }
                    let target = number & (1 << 22) == 0 ? (oldest ?? key) : key
                    #expect(table.removeValue(forKey: target) == reference.removeValue(forKey: target))
                }
                #expect(table.count == reference.count)
                #expect(table[key] == reference[key])
            }
            for (key, value) in reference { #expect(table[key] == value) }
            #expect(Set(table.all.map(\.key)) == Set(reference.keys))
        }
    }

    /// A fan-out's budgets: numbered one after another, answered in order; the window holds only what is in flight.
    @Test func timersCancelledInOrderLeaveAnEmptyWindow() {
        var table = ArmedTimers<TimerID>()
        for number in 1...1_000 { _ = table.updateValue(armed(UInt64(number)), forKey: TimerID(UInt64(number))) }
        #expect(table.windowSlots == 1_000)
        for number in 1...1_000 { table.removeValue(forKey: TimerID(UInt64(number))) }
        #expect(table.windowSlots == 0 && table.count == 0)
    }

    /// One timer that stays armed while thousands are numbered and cancelled after it moves out of the window
    /// instead of holding it open.
    @Test func aLongLivedTimerDoesNotHoldTheWindowOpen() {
        var table = ArmedTimers<TimerID>()
        _ = table.updateValue(armed(0), forKey: TimerID(1))
        for number in 2...10_000 {
            _ = table.updateValue(armed(UInt64(number)), forKey: TimerID(UInt64(number)))
            table.removeValue(forKey: TimerID(UInt64(number)))
        }
        #expect(table.windowSlots <= 64)
        let first: ArmedTimers<TimerID>.Armed = armed(0)
        #expect(table[TimerID(1)] == first)
        #expect(table.removeValue(forKey: TimerID(1)) == first)
        #expect(table.count == 0)
    }
}

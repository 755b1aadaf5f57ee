import Testing

@testable import LifebusCore

/// The device's own timers: the earliest deadline and the order due timers come out in (by deadline, ties in the
/// order they were armed), against a plain list under random arms, cancels and takes.
@Suite struct TimerQueueTests {
    @Test func timersDueAtOneDeadlineComeOutInTheOrderTheyWereArmed() {
        var queue = TimerQueue()
        let late = queue.arm(.watchdog(0), at: Instant(nanoseconds: 30))
        let first = queue.arm(.launch(1), at: Instant(nanoseconds: 10))
        let second = queue.arm(.exitGrace(2), at: Instant(nanoseconds: 10))
        #expect(queue.earliestDeadline == Instant(nanoseconds: 10))
        #expect(queue.takeDue(at: Instant(nanoseconds: 9)) == nil, "nothing is due before the earliest deadline")
        #expect(queue.takeDue(at: Instant(nanoseconds: 40))?.id == first)
        #expect(queue.takeDue(at: Instant(nanoseconds: 40))?.id == second)
        #expect(queue.takeDue(at: Instant(nanoseconds: 40))?.id == late)
        #expect(queue.takeDue(at: Instant(nanoseconds: 40)) == nil && queue.earliestDeadline == nil)
    }

    @Test(arguments: [1, 7, 42, 2026] as [UInt64])
    func randomRunsAgreeWithASortedList(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var queue = TimerQueue()
        var model: [(deadline: Instant, id: TimerID, purpose: TimerPurpose)] = []
        var now = Instant.zero
        for step in 0..<2_000 {
            let roll = random.next()
            switch roll % 4 {
            case 0, 1:
                let deadline = now + .nanoseconds(Int64(roll >> 8 % 64))
                let purpose = TimerPurpose.watchdog(Int(roll >> 16 % 8))
                model.append((deadline, queue.arm(purpose, at: deadline), purpose))
            case 2:
                guard !model.isEmpty else { continue }
                let victim = model.remove(at: Int(roll >> 8) % model.count)
                queue.cancel(victim.id)
                #expect(queue.purpose(of: victim.id) == nil, "step \(step)")
            default:
                now = now + .nanoseconds(Int64(roll >> 8 % 16))
                model.sort { ($0.deadline, $0.id.rawValue) < ($1.deadline, $1.id.rawValue) }
                while let due = queue.takeDue(at: now) {
                    let expected = model.removeFirst()
                    #expect(due.id == expected.id && due.deadline == expected.deadline && due.deadline <= now,
                            "step \(step)")
                }
                #expect(model.allSatisfy { $0.deadline > now }, "step \(step): a due timer was left")
            }
            #expect(queue.count == model.count && queue.isOrdered, "step \(step)")
            #expect(queue.earliestDeadline == model.map(\.deadline).min(), "step \(step)")
        }
    }
}

@testable import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The delivery sub-machine on its own: state changes are noted for the waiters' look at the input's end, held
/// deliveries keep their commit asked for and come back in order, the waiters' indexes agree through every
/// operation (random runs against a plain model); a corrupted book says what is broken.
@Suite struct DeliveryBookTests {
    static let notes: AppID = "com.example.Notes"
    static let mail: AppID = "com.example.Mail"
    static let epoch = Instant(nanoseconds: 1_000_000_000)

    static func addWaiter(_ book: inout DeliveryBook, session: UInt64, app: AppID,
                          states: Set<LifecycleState> = [.active]) -> UInt64 {
        book.waiters.add(session: SessionID(session), app: app, states: states, ticket: Ticket(session),
                         statesText: "active", timeout: .seconds(1))
    }

    @Test func aStateChangeIsTimedAndNotedForTheWaitersOnlyWhenSomeoneWaits() {
        var book = DeliveryBook()
        book.stateChanged(Self.notes, at: Self.epoch)
        #expect(book.enteredAt[Self.notes] == Self.epoch)
        #expect(book.changedApps.isEmpty, "nobody waits")
        _ = Self.addWaiter(&book, session: 1, app: Self.mail)
        book.stateChanged(Self.notes, at: Self.epoch + .milliseconds(5))
        book.stateChanged(Self.notes, at: Self.epoch + .milliseconds(6))
        #expect(book.enteredAt[Self.notes] == Self.epoch + .milliseconds(6))
        var changed = book.takeChangedApps()
        #expect(changed == [Self.notes, Self.notes])
        #expect(book.changedApps.isEmpty)
        book.returnChangedApps(&changed)
        #expect(changed.isEmpty && book.changedApps.isEmpty)
        #expect(book.changedApps.capacity >= 2, "the buffer's room is kept")
        #expect(book.invariantViolations.isEmpty)
    }

    @Test func heldDeliveriesKeepTheirCommitAskedForAndComeBackInOrder() {
        var book = DeliveryBook()
        let first = book.requestCommit()
        #expect(first)
        let second = book.requestCommit()
        #expect(!second, "asked once per turn")
        book.hold(.answer(Ticket(1), .null))
        book.hold(.mark(Ticket(2), seq: 3, name: "m"))
        book.commitNotNeeded()
        #expect(book.commitRequested, "deliveries are held")
        #expect(book.invariantViolations.isEmpty)
        let held = book.takeHeld()
        #expect(held.count == 2)
        if case .answer(let ticket, _) = held.first { #expect(ticket == Ticket(1)) } else { Issue.record("order") }
        #expect(!book.commitRequested && book.held.isEmpty)
        _ = book.requestCommit()
        book.commitNotNeeded()
        #expect(!book.commitRequested, "nothing held, every line written")
    }

    @Test func waitersAreTakenWhenSatisfiedTimedOutOrTheirSessionGoes() {
        var book = DeliveryBook()
        let first = Self.addWaiter(&book, session: 1, app: Self.notes)
        let second = Self.addWaiter(&book, session: 1, app: Self.notes, states: [.background])
        let third = Self.addWaiter(&book, session: 2, app: Self.mail)
        #expect(book.waiters.count(session: SessionID(1)) == 2)
        let satisfied = book.waiters.takeSatisfied(app: Self.notes, state: .active) { _ in .unattached }
        #expect(satisfied.map(\.number) == [first])
        #expect(book.waiters.take(number: third, app: Self.mail)?.number == third)
        #expect(book.waiters.take(number: third, app: Self.mail) == nil, "taken once")
        #expect(book.waiters.cancel(session: SessionID(1)).map(\.number) == [second])
        #expect(book.waiters.isEmpty)
        #expect(book.invariantViolations.isEmpty)
    }

    enum Operation {
        case add(session: UInt64, app: AppID, states: Set<LifecycleState>)
        case satisfy(AppID, LifecycleState)
        case take(number: UInt64, app: AppID)
        case cancel(session: UInt64)
        case takeAll

        static let apps: [AppID] = [DeliveryBookTests.notes, DeliveryBookTests.mail]
        static let states: [LifecycleState] = [.active, .background, .suspended]

        static func random(next: UInt64, using rng: inout SplitMix64) -> Operation {
            let app = apps.randomElement(using: &rng)!
            let state = states.randomElement(using: &rng)!
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...3:
                let more = states.randomElement(using: &rng)!
                return .add(session: UInt64.random(in: 1...3, using: &rng), app: app, states: [state, more])
            case 4, 5: return .satisfy(app, state)
            case 6, 7: return .take(number: UInt64.random(in: 1...max(next, 1), using: &rng), app: app)
            case 8: return .cancel(session: UInt64.random(in: 1...3, using: &rng))
            default: return .takeAll
            }
        }
    }

    /// The waiters as a plain list, in the order they were added.
    struct Waiting: Equatable {
        let number: UInt64
        let session: UInt64
        let app: AppID
        let states: Set<LifecycleState>
    }

    @Test(arguments: [1, 7, 42, 2026] as [UInt64])
    func randomRunsOfWaitersMatchTheModelAndKeepTheIndexesInAgreement(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var book = DeliveryBook()
        var model: [Waiting] = []
        var next: UInt64 = 1
        for step in 0..<500 {
            let operation = Operation.random(next: next, using: &rng)
            let context = "seed \(seed), step \(step), \(operation)"
            switch operation {
            case .add(let session, let app, let states):
                let number = Self.addWaiter(&book, session: session, app: app, states: states)
                #expect(number == next, "\(context)")
                model.append(Waiting(number: number, session: session, app: app, states: states))
                next += 1
            case .satisfy(let app, let state):
                let taken = book.waiters.takeSatisfied(app: app, state: state) { _ in .unattached }.map(\.number)
                let expected = model.filter { $0.app == app && $0.states.contains(state) }.map(\.number)
                model.removeAll { expected.contains($0.number) }
                #expect(taken == expected, "\(context)")
            case .take(let number, let app):
                let taken = book.waiters.take(number: number, app: app)?.number
                let expected = model.first { $0.number == number && $0.app == app }?.number
                model.removeAll { $0.number == expected }
                #expect(taken == expected, "\(context)")
            case .cancel(let session):
                let taken = book.waiters.cancel(session: SessionID(session)).map(\.number).sorted()
                let expected = model.filter { $0.session == session }.map(\.number)
                model.removeAll { $0.session == session }
                #expect(taken == expected, "\(context)")
            case .takeAll:
                #expect(book.waiters.takeAll().map(\.number).sorted() == model.map(\.number), "\(context)")
                model = []
            }
            #expect(book.waiters.isEmpty == model.isEmpty, "\(context)")
            for session in 1...3 as ClosedRange<UInt64> {
                #expect(book.waiters.count(session: SessionID(session)) == model.filter { $0.session == session }.count,
                        "\(context)")
            }
            let broken = book.invariantViolations
            #expect(broken.isEmpty, "\(context): \(broken)")
            if !broken.isEmpty { return }
        }
    }

    @Test func aCorruptedBookSaysWhatIsBroken() {
        var book = DeliveryBook()
        let number = Self.addWaiter(&book, session: 1, app: Self.notes)
        #expect(book.invariantViolations.isEmpty)

        var leftOver = book
        leftOver.stateChanged(Self.notes, at: Self.epoch)
        #expect(leftOver.invariantViolations == ["1 changed apps are left over from an input"])

        var heldAlone = book
        heldAlone.hold(.answer(Ticket(1), .null))
        #expect(heldAlone.invariantViolations == ["1 deliveries are held but no commit is asked for"])

        var miscounted = book
        miscounted.waiters.bySession[SessionID(1)] = 2
        #expect(miscounted.invariantViolations == ["session 1 is counted 2 waiters but has 1"])

        var misfiled = book
        misfiled.waiters.byApp[Self.mail] = misfiled.waiters.byApp[Self.notes]
        #expect(misfiled.invariantViolations.sorted() == [
            "session 1 is counted 1 waiters but has 2",
            "waiter \(number) is listed twice",
            "waiter \(number) of com.example.Notes is listed under com.example.Mail",
        ])
    }
}

@testable import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The session sub-machine on its own: each operation keeps the records, the newcomers, the apps' live sessions
/// and the observers in agreement; random runs match a plain model; a corrupted table says what is broken.
@Suite struct SessionTableTests {
    static let notes: AppID = "com.example.Notes"
    static let mail: AppID = "com.example.Mail"

    static func identity(uid: UInt32 = 501) -> PeerIdentity {
        PeerIdentity(pid: 700, uid: uid, gid: 20)
    }

    @Test func anAdmittedSessionIsANewcomerUntilItsHello() {
        var table = SessionTable()
        table.admit(SessionID(1), identity: Self.identity(), overTCP: false, spoke: false)
        table.admit(SessionID(2), identity: Self.identity(), overTCP: false, spoke: true)
        #expect(table.count == 2)
        #expect(table.silentSessions == [SessionID(1)])
        #expect(table.unintroduced.map(\.session) == [SessionID(1), SessionID(2)])
        table.introduce(SessionID(1), as: .observer)
        #expect(table[SessionID(1)]?.role == .observer)
        #expect(table.unintroduced.map(\.session) == [SessionID(2)])
        #expect(table.observers == [SessionID(1)])
        #expect(table.silentSessions.isEmpty)
        #expect(table.invariantViolations.isEmpty)
    }

    @Test func messagesBeforeHelloAreCountedAndMakeTheSessionSpoken() {
        var table = SessionTable()
        table.admit(SessionID(1), identity: Self.identity(), overTCP: false, spoke: false)
        #expect(table.countMessageBeforeHello(SessionID(1)) == 1)
        #expect(table.countMessageBeforeHello(SessionID(1)) == 2)
        #expect(table.countMessageBeforeHello(SessionID(9)) == nil, "never admitted")
        #expect(table.silentSessions.isEmpty)
        #expect(table.invariantViolations.isEmpty)
    }

    @Test func aSessionSentAwayLeavesTheNewcomersButStaysAdmittedUntilItEnds() {
        var table = SessionTable()
        table.admit(SessionID(1), identity: Self.identity(), overTCP: false, spoke: false)
        table.sendAway(SessionID(1))
        #expect(table.unintroduced.isEmpty)
        #expect(table[SessionID(1)] != nil)
        #expect(table.invariantViolations.isEmpty)
        #expect(table.end(SessionID(1)) != nil)
        #expect(table.count == 0)
        #expect(table.end(SessionID(1)) == nil, "ended once")
    }

    @Test func anAppIsItsAppsLiveSessionUntilItEndsOrIsDisconnected() {
        var table = SessionTable()
        table.admit(SessionID(1), identity: Self.identity(), overTCP: false, spoke: true)
        table.admit(SessionID(2), identity: Self.identity(), overTCP: false, spoke: true)
        table.introduce(SessionID(1), as: .app)
        table.introduce(SessionID(2), as: .app)
        table.connect(Self.notes, session: SessionID(1))
        table.connect(Self.notes, session: SessionID(2))
        #expect(table.session(for: Self.notes) == SessionID(1), "one live session per app")
        #expect(table[SessionID(2)]?.app == nil)
        #expect(table.appCount == 1)
        #expect(table.invariantViolations.isEmpty)
        table.disconnect(Self.notes)
        #expect(table.session(for: Self.notes) == nil)
        #expect(table[SessionID(1)]?.app == nil)
        table.connect(Self.mail, session: SessionID(2))
        let ended = table.end(SessionID(2))
        #expect(ended?.app == Self.mail)
        #expect(table.session(for: Self.mail) == nil)
        #expect(table.invariantViolations.isEmpty)
    }

    @Test func onlyAnAppSessionConnectsAndARoleIsGivenOnce() {
        var table = SessionTable()
        table.admit(SessionID(1), identity: Self.identity(), overTCP: false, spoke: true)
        table.introduce(SessionID(1), as: .controller)
        table.connect(Self.notes, session: SessionID(1))
        #expect(table.session(for: Self.notes) == nil)
        table.introduce(SessionID(1), as: .observer)
        #expect(table[SessionID(1)]?.role == .controller)
        #expect(table.observers.isEmpty)
        #expect(table.invariantViolations.isEmpty)
    }

    @Test func anEndedObserverLeavesTheObservers() {
        var table = SessionTable()
        table.admit(SessionID(1), identity: Self.identity(), overTCP: false, spoke: true)
        table.introduce(SessionID(1), as: .observer)
        _ = table.end(SessionID(1))
        #expect(table.observers.isEmpty)
        #expect(table.invariantViolations.isEmpty)
    }

    /// What the table should hold, kept the plainest way: one entry per admitted session.
    struct Model {
        struct Entry: Equatable {
            var role: PeerRole?
            var app: AppID?
            var spoke: Bool
            var messages: Int
            var newcomer: Bool
        }

        var entries: [SessionID: Entry] = [:]
        var order: [SessionID] = []

        mutating func apply(_ operation: Operation) {
            switch operation {
            case .admit(let session, let spoke):
                entries[session] = Entry(role: nil, app: nil, spoke: spoke, messages: 0, newcomer: true)
                order.append(session)
            case .noteSpoken(let session):
                if entries[session]?.newcomer == true { entries[session]?.spoke = true }
            case .countMessage(let session):
                entries[session]?.messages += 1
                if entries[session]?.newcomer == true { entries[session]?.spoke = true }
            case .sendAway(let session):
                entries[session]?.newcomer = false
            case .introduce(let session, let role):
                guard entries[session] != nil, entries[session]?.role == nil else { return }
                entries[session]?.role = role
                entries[session]?.newcomer = false
            case .connect(let app, let session):
                guard let entry = entries[session], entry.role == .app, entry.app == nil,
                      !entries.values.contains(where: { $0.app == app }) else { return }
                entries[session]?.app = app
            case .disconnect(let app):
                guard let session = entries.first(where: { $0.value.app == app })?.key else { return }
                entries[session]?.app = nil
            case .end(let session):
                entries[session] = nil
                order.removeAll { $0 == session }
            }
        }

        func check(_ table: SessionTable, _ context: String) {
            #expect(table.count == entries.count, "\(context)")
            for (session, entry) in entries {
                let record = table[session]
                #expect(record?.role == entry.role && record?.app == entry.app, "\(context): \(session)")
                #expect(record?.messagesBeforeHello == entry.messages, "\(context): \(session)")
                if let app = entry.app { #expect(table.session(for: app) == session, "\(context): \(app)") }
            }
            let newcomers = order.filter { entries[$0]?.newcomer == true }
            #expect(table.unintroduced.map(\.session) == newcomers, "\(context)")
            #expect(table.silentSessions == newcomers.filter { entries[$0]?.spoke == false }, "\(context)")
            let observers = entries.filter { $0.value.role == .observer }.keys
            #expect(table.observers == Set(observers), "\(context)")
            #expect(table.appCount == entries.values.filter { $0.app != nil }.count, "\(context)")
        }
    }

    enum Operation {
        case admit(SessionID, spoke: Bool)
        case noteSpoken(SessionID)
        case countMessage(SessionID)
        case sendAway(SessionID)
        case introduce(SessionID, PeerRole)
        case connect(AppID, SessionID)
        case disconnect(AppID)
        case end(SessionID)

        static let apps: [AppID] = [SessionTableTests.notes, SessionTableTests.mail, "com.example.Maps"]

        /// A random operation, on sessions admitted so far and a few that never were.
        static func random(next: inout UInt64, using rng: inout SplitMix64) -> Operation {
            let known = next > 1 ? SessionID(UInt64.random(in: 1..<(next + 2), using: &rng)) : SessionID(1)
            let app = apps.randomElement(using: &rng)!
            switch Int.random(in: 0..<9, using: &rng) {
            case 0, 1:
                next += 1
                return .admit(SessionID(next - 1), spoke: Bool.random(using: &rng))
            case 2: return .noteSpoken(known)
            case 3: return .countMessage(known)
            case 4: return .sendAway(known)
            case 5: return .introduce(known, PeerRole.allCases.randomElement(using: &rng)!)
            case 6: return .connect(app, known)
            case 7: return .disconnect(app)
            default: return .end(known)
            }
        }
    }

    @Test(arguments: [1, 7, 42, 2026] as [UInt64])
    func randomRunsMatchTheModelAndKeepTheIndexesInAgreement(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var table = SessionTable()
        var model = Model()
        var next: UInt64 = 1
        for step in 0..<500 {
            let operation = Operation.random(next: &next, using: &rng)
            model.apply(operation)
            switch operation {
            case .admit(let session, let spoke):
                table.admit(session, identity: Self.identity(), overTCP: false, spoke: spoke)
            case .noteSpoken(let session): table.noteSpoken(session)
            case .countMessage(let session): _ = table.countMessageBeforeHello(session)
            case .sendAway(let session): table.sendAway(session)
            case .introduce(let session, let role): table.introduce(session, as: role)
            case .connect(let app, let session): table.connect(app, session: session)
            case .disconnect(let app): table.disconnect(app)
            case .end(let session): _ = table.end(session)
            }
            let context = "seed \(seed), step \(step), \(operation)"
            model.check(table, context)
            let broken = table.invariantViolations
            #expect(broken.isEmpty, "\(context): \(broken)")
            if !broken.isEmpty { return }
        }
    }

    @Test func aCorruptedTableSaysWhatIsBroken() {
        var table = SessionTable()
        table.admit(SessionID(1), identity: Self.identity(), overTCP: false, spoke: true)
        table.admit(SessionID(2), identity: Self.identity(), overTCP: false, spoke: true)
        table.introduce(SessionID(1), as: .app)
        table.connect(Self.notes, session: SessionID(1))
        #expect(table.invariantViolations.isEmpty)

        var ghostApp = table
        ghostApp.appSessions[Self.mail] = SessionID(2)
        #expect(ghostApp.invariantViolations == ["com.example.Mail's live session 2 is not its app's"])

        var lostIndex = table
        lostIndex.appSessions[Self.notes] = nil
        #expect(lostIndex.invariantViolations == ["session 1 is com.example.Notes, whose live session is another"])

        var strayObserver = table
        strayObserver.observers.insert(SessionID(3))
        #expect(strayObserver.invariantViolations == ["observer 3 is not an admitted observer"])

        var twiceNewcomer = table
        twiceNewcomer.unintroduced.append(Newcomer(session: SessionID(2), uid: 501, hasSpoken: true))
        #expect(twiceNewcomer.invariantViolations == ["session 2 is a newcomer twice"])

        var introducedNewcomer = table
        introducedNewcomer.unintroduced.append(Newcomer(session: SessionID(1), uid: 501, hasSpoken: true))
        #expect(introducedNewcomer.invariantViolations == ["newcomer 1 is not an unintroduced session"])
    }
}

import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// Who gets in: the hello deadline on virtual time, the messages allowed before `hello`, the room kept for silent
/// peers (in all and per uid) and the total connection cap.
@Suite struct AdmissionTests {
    private static func settings(_ change: (inout MachineSettings) -> Void) -> MachineSettings {
        var settings = MachineSettings(device: DeviceConfiguration())
        change(&settings)
        return settings
    }

    @Test func aSilentPeerIsClosedWhenTheHelloTimeoutPassesAndNotBefore() {
        var harness = MachineHarness(settings: Self.settings { $0.helloTimeout = .seconds(5) })
        let (session, effects) = harness.connect()
        #expect(effects.contains { if case .armTimer(_?) = $0 { true } else { false } })
        let early = harness.advance(by: .milliseconds(4999))
        #expect(early.notifications(to: session).isEmpty)
        let due = harness.advance(by: .milliseconds(1))
        #expect(due.notifications(to: session) == ["lifebus.HelloTimeout"])
        #expect(due.closing(of: session) == .afterFlushUnlessStuck)
    }

    @Test func helloInTimeDisarmsTheHelloDeadline() {
        var harness = MachineHarness(settings: Self.settings { $0.helloTimeout = .seconds(1) })
        let (session, _) = harness.introduce("controller")
        #expect(harness.timer == nil)
        #expect(harness.advance(by: .seconds(10)).notifications(to: session).isEmpty)
    }

    @Test func theHelloDeadlinesOfManyPeersComeDueInTheOrderTheyConnected() {
        var harness = MachineHarness(settings: Self.settings { $0.helloTimeout = .seconds(2) })
        let (first, _) = harness.connect(uid: 1)
        _ = harness.advance(by: .seconds(1))
        let (second, _) = harness.connect(uid: 2)
        let atTwo = harness.advance(by: .seconds(1))
        #expect(atTwo.notifications(to: first) == ["lifebus.HelloTimeout"])
        #expect(atTwo.notifications(to: second).isEmpty)
        #expect(harness.advance(by: .seconds(1)).notifications(to: second) == ["lifebus.HelloTimeout"])
    }

    @Test func morePeerMessagesBeforeHelloThanTheCapCloseThePeer() {
        var harness = MachineHarness(settings: Self.settings { $0.maxMessagesBeforeHello = 3 })
        let (session, _) = harness.connect(spoke: true)
        for _ in 1...3 {
            let (ticket, effects) = harness.request(session, "ping")
            #expect(effects.errorName(of: ticket) == "lifebus.HelloRequired")
        }
        let (ticket, effects) = harness.request(session, "ping")
        #expect(effects.reply(to: ticket) == nil)
        #expect(effects.contains { if case .forget(ticket) = $0 { true } else { false } })
        #expect(effects.notifications(to: session) == ["lifebus.LimitExceeded"])
        #expect(effects.closing(of: session) == .afterFlushUnlessStuck)
    }

    @Test func aNewSilentPeerOfAUIDAtItsCapSendsThatUIDsOldestAway() {
        var harness = MachineHarness(settings: Self.settings { $0.maxConnectionsBeforeHelloPerUID = 2 })
        let (oldest, _) = harness.connect(uid: 7)
        let (_, _) = harness.connect(uid: 7)
        let (_, other) = harness.connect(uid: 8)
        #expect(other.closing(of: oldest) == nil, "another uid's peer takes no room of uid 7")
        let (newcomer, effects) = harness.connect(uid: 7)
        #expect(effects.notifications(to: oldest) == ["lifebus.LimitExceeded"])
        #expect(effects.closing(of: oldest) != nil)
        #expect(harness.machine.isAdmitted(newcomer))
    }

    @Test func aPeerThatHasSpokenIsNotPushedOutBelowTheTotalCap() {
        var harness = MachineHarness(settings: Self.settings { $0.maxConnectionsBeforeHelloPerUID = 1 })
        let (speaker, _) = harness.connect(uid: 7)
        harness.feed(.spoke(speaker))
        let (_, effects) = harness.connect(uid: 7)
        #expect(effects.closing(of: speaker) == nil)
        #expect(harness.machine.silentSessions.count == 1)
    }

    @Test func atTheTotalCapTheOldestUnintroducedGoesElseTheNewcomerIsRefused() {
        var harness = MachineHarness(settings: Self.settings { $0.connectionCap = 2 })
        let (waiting, _) = harness.connect(spoke: true)
        _ = harness.introduce("controller")
        let (admitted, effects) = harness.connect()
        #expect(effects.closing(of: waiting) != nil, "the unintroduced peer made room")
        #expect(harness.machine.isAdmitted(admitted))
        harness.feed(.ended(waiting))
        _ = harness.request(admitted, "hello", #"{"role":"observer","protocolVersion":1}"#)
        let (refused, refusal) = harness.connect()
        #expect(!harness.machine.isAdmitted(refused))
        #expect(refusal.notifications(to: refused) == ["lifebus.LimitExceeded"])
        #expect(refusal.closing(of: refused) == .afterFlush)
    }

    @Test func aRefusedConnectionsLinesAreNeitherAnsweredNorObeyed() {
        var harness = MachineHarness(settings: Self.settings { $0.connectionCap = 1 })
        _ = harness.introduce("controller")
        let (refused, _) = harness.connect()
        let (ticket, effects) = harness.request(refused, "hello", #"{"role":"controller","protocolVersion":1}"#)
        #expect(effects.reply(to: ticket) == nil)
        #expect(!harness.machine.isAdmitted(refused))
    }
}

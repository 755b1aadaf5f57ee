import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// Resident-memory rounds and `--freeze-suspended` in the machine, on virtual time: a round planning a jetsam kill
/// of a suspended app fires a critical warning whose kill carries the figures; a suspended spawned app is frozen
/// and thawed when it leaves `suspended`.
@Suite struct MemoryAndFreezeTests {
    /// `notes` installed and spawned (pid 900), connected, then sent home: suspended.
    static func suspendedNotes(freezing: Bool = false) throws -> (MachineHarness, SessionID, [BrokerEffect]) {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.freezesSuspended = freezing
        var harness = MachineHarness(settings: settings)
        let (controller, _) = harness.introduce("controller")
        let (ticket, _) = harness.request(controller, "install", #"{"path":"/apps/notes.json"}"#)
        var notes = ProcessesTests.notes
        notes.flags = AppFlags()
        harness.feed(.installed(ticket, .success(notes)))
        _ = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        harness.feed(.processSpawned("com.example.Notes", pid: 900))
        let (_, hello) = harness.introduce("app", app: "com.example.Notes", pid: 900)
        _ = harness.answerAllCallbacks(in: hello)
        let (_, home) = harness.request(controller, "fire", #"{"event":"home"}"#)
        let effects = harness.answerAllCallbacks(in: home)
        #expect(harness.machine.device.state(of: "com.example.Notes") == .suspended)
        return (harness, controller, home + effects)
    }

    @Test func aRoundPlanningTheJetsamOfASuspendedAppKillsItWithTheFigures() throws {
        var (harness, controller, _) = try Self.suspendedNotes()
        let kill = MemoryRound.Kill(app: "com.example.Notes", reason: .jetsam, residentBytes: 300, limit: nil)
        let round = MemoryRound(samples: ["com.example.Notes": 300], level: .critical, totalBytes: 300,
                                deviceMemory: 400, kills: [kill])
        let effects = harness.feed(.memorySampled(round))
        #expect(effects.contains { if case .kill("com.example.Notes", .group, .jetsam) = $0 { true } else { false } })
        let killed = harness.journal.entries(app: "com.example.Notes").compactMap {
            if case .process(let record) = $0, record.event == .killed { record } else { nil }
        }.last
        #expect(killed?.detail == "resident 300 bytes, device total 300 of 400 bytes, level critical")
        let (ticket, apps) = harness.request(controller, "apps")
        #expect(try apps.reply(to: ticket)?.get()["pressure"]?.stringValue == "critical")
        // The same level again with nothing to kill fires nothing.
        let quiet = harness.feed(.memorySampled(MemoryRound(samples: [:], level: .critical, totalBytes: 1)))
        #expect(!quiet.contains { if case .kill = $0 { true } else { false } })
    }

    @Test func aSuspendedSpawnedAppIsFrozenAndThawedWhenItLeavesSuspended() throws {
        var (harness, controller, home) = try Self.suspendedNotes(freezing: true)
        #expect(home.contains { if case .freeze("com.example.Notes") = $0 { true } else { false } })
        let (_, activate) = harness.request(controller, "fire", #"{"event":"activate","app":"com.example.Notes"}"#)
        let thaw = activate.firstIndex { if case .thaw("com.example.Notes") = $0 { true } else { false } }
        let callback = activate.firstIndex { if case .sendCallback = $0 { true } else { false } }
        #expect(thaw != nil && callback != nil)
    }

    @Test func withoutTheFlagNothingIsFrozen() throws {
        let (_, _, home) = try Self.suspendedNotes()
        #expect(!home.contains { if case .freeze = $0 { true } else { false } })
    }
}

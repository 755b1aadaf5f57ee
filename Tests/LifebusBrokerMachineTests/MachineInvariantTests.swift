@testable import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `BrokerMachine.invariantViolations`: empty after every input of a random run (the machine also asserts it after
/// each input in debug builds), and naming the fact when a state is corrupted by hand.
@Suite struct MachineInvariantTests {
    /// A small seeded generator (SplitMix64), so a failing run can be replayed from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let apps: [AppID] = ["com.example.Notes", "com.example.Mail", "com.example.Maps"]
    static let events = [
        #"{"event":"launch","app":"APP"}"#, #"{"event":"home"}"#, #"{"event":"activate","app":"APP"}"#,
        #"{"event":"terminate","app":"APP"}"#, #"{"event":"call"}"#, #"{"event":"lock"}"#, #"{"event":"unlock"}"#,
        #"{"event":"memory-warning"}"#,
    ]

    /// One random input (or a few, for a step such as a hello) fed to the harness.
    static func step(_ harness: inout MachineHarness, _ rng: inout SplitMix, controller: SessionID,
                     pending: inout [BrokerEffect], sessions: inout [SessionID]) {
        let app = apps.randomElement(using: &rng)!
        var effects: [BrokerEffect] = []
        switch Int.random(in: 0..<13, using: &rng) {
        case 0:
            let (session, hello) = harness.introduce("app", app: app.rawValue, pid: Int32.random(in: 900...903,
                                                                                                  using: &rng))
            sessions.append(session)
            effects = hello
        case 1:
            let (session, _) = harness.connect(spoke: Bool.random(using: &rng))
            sessions.append(session)
        case 2:
            let text = events.randomElement(using: &rng)!.replacingOccurrences(of: "APP", with: app.rawValue)
            effects = harness.request(controller, "fire", text).1
        case 3, 4:
            let answers = harness.answerCallbacks(in: pending)
            pending = []
            effects = answers
        case 5:
            if let session = sessions.randomElement(using: &rng) {
                sessions.removeAll { $0 == session }
                effects = harness.feed(.ended(session, droppedFor: Bool.random(using: &rng) ? .writeStalled : nil))
            }
        case 6:
            let (ticket, _) = harness.request(controller, "install", #"{"path":"/apps/x.json"}"#)
            var installed = ProcessesTests.notes
            installed.id = app
            effects = harness.feed(.installed(ticket, .success(installed)))
        case 7:
            effects = harness.feed(.processSpawned(app, pid: Int32.random(in: 900...903, using: &rng)))
        case 8:
            let status: LifebusCore.ExitStatus = Bool.random(using: &rng) ? .exited(0) : .signaled(9)
            effects = harness.feed(.processExited(app, pid: Int32.random(in: 900...903, using: &rng), status,
                                                  killedFor: Bool.random(using: &rng) ? .watchdog : nil))
        case 9:
            effects = Bool.random(using: &rng)
                ? harness.feed(.launchFailed(app, path: "/bin/x", errno: 2, detail: "gone"))
                : harness.feed(.spawnRefused(app, because: "alreadyRunning"))
        case 10:
            let kill = MemoryRound.Kill(app: app, reason: Bool.random(using: &rng) ? .jetsam : .memoryLimit,
                                        residentBytes: 300, limit: nil)
            effects = harness.feed(.memorySampled(MemoryRound(
                samples: [app: 300], level: .critical, totalBytes: 300, deviceMemory: 400, kills: [kill])))
        case 11:
            effects = harness.advance(by: .milliseconds(Int64.random(in: 1...12_000, using: &rng)))
        default:
            effects = harness.request(controller, "uninstall", #"{"id":"\#(app)"}"#).1 + harness.feed(.commitJournal)
        }
        pending += effects
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func theInvariantsHoldAfterEveryInputOfARandomRun(seed: UInt64) {
        var rng = SplitMix(state: seed)
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.freezesSuspended = true
        settings.brokerPid = 903
        var harness = MachineHarness(settings: settings)
        let (controller, _) = harness.introduce("controller")
        var pending: [BrokerEffect] = []
        var sessions: [SessionID] = []
        for index in 0..<400 {
            Self.step(&harness, &rng, controller: controller, pending: &pending, sessions: &sessions)
            let broken = harness.machine.invariantViolations
            #expect(broken.isEmpty, "seed \(seed), step \(index): \(broken)")
            if !broken.isEmpty { return }
        }
    }

    @Test func anAppIndexPointingAtANonAppSessionIsAViolation() {
        var (harness, _) = MachineHarness.notesLaunched()
        #expect(harness.machine.invariantViolations.isEmpty)
        let (controller, _) = harness.introduce("controller")
        harness.machine.sessions.appSessions["com.example.Ghost"] = controller
        #expect(harness.machine.invariantViolations == [
            "com.example.Ghost's live session \(controller) is not its app's",
        ])
    }

    @Test func aRestorationStateOfAnAppNotInstalledIsAViolation() {
        var harness = MachineHarness()
        harness.machine.processes.restoration["com.example.Gone"] = "{}"
        #expect(harness.machine.invariantViolations == [
            "com.example.Gone keeps a restoration state but is not installed",
        ])
    }

    @Test func aFrozenProcessOfAnAppNotSuspendedIsAViolation() {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.freezesSuspended = true
        var harness = MachineHarness(settings: settings)
        harness.machine.processes.processSpawned("com.example.Notes", pid: 900)
        _ = harness.machine.processes.setFrozen("com.example.Notes", true)
        #expect(harness.machine.invariantViolations == ["com.example.Notes is frozen but notRunning"])
    }
}

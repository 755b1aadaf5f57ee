import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The rules that once lived in the libuv driver, now the machine's: how a kill reaches a process (never the
/// broker's own), which processes are held, the one install rule and its text, a refused spawn failing its launch,
/// and the memory standing of each sampled app with the "settling" filter.
@Suite struct DriverRulesTests {
    static let notes: AppID = "com.example.Notes"

    /// `notes` connected on its own from `pid`, active, and a controller; the broker runs as `brokerPid`.
    static func selfConnected(pid: Int32, brokerPid: Int32 = 1) -> (MachineHarness, SessionID, [BrokerEffect]) {
        var settings = MachineSettings(device: DeviceConfiguration())
        settings.brokerPid = brokerPid
        var harness = MachineHarness(settings: settings)
        let (_, hello) = harness.introduce("app", app: notes.rawValue, pid: pid)
        _ = harness.answerAllCallbacks(in: hello)
        let (controller, _) = harness.introduce("controller")
        return (harness, controller, hello)
    }

    /// The kill effects among `effects`, as (app, route).
    static func kills(_ effects: [BrokerEffect]) -> [KillRoute] {
        effects.compactMap { if case .kill(_, let route, _) = $0 { route } else { nil } }
    }

    @Test func anAppThatConnectedOnItsOwnIsHeldAtHelloKilledByPidAndReleasedAtItsEnd() throws {
        var (harness, controller, hello) = Self.selfConnected(pid: 900)
        #expect(hello.contains { if case .holdProcess(Self.notes, _, pid: 900) = $0 { true } else { false } })
        let (_, fired) = harness.request(controller, "fire", #"{"event":"home"}"#)
        #expect(!fired.callbacks.isEmpty)
        let due = harness.advance(by: .seconds(10))
        #expect(Self.kills(due) == [.pid(900)])
        let session = try #require(due.compactMap { if case .close(let s, .now) = $0 { s } else { nil } }.first)
        let ended = harness.feed(.ended(session))
        #expect(ended.contains { if case .releaseProcess(Self.notes) = $0 { true } else { false } })
    }

    /// An app connected from inside the broker's process (the in-process fuzzer's) shares its pid: it is never
    /// held, and its watchdog kill is recorded but signals nothing.
    @Test func theBrokersOwnPidIsNeverHeldNorKilled() throws {
        var (harness, controller, hello) = Self.selfConnected(pid: 900, brokerPid: 900)
        #expect(!hello.contains { if case .holdProcess = $0 { true } else { false } })
        _ = harness.request(controller, "fire", #"{"event":"home"}"#)
        let due = harness.advance(by: .seconds(10))
        #expect(Self.kills(due).isEmpty, "no signal to the broker's own process")
        #expect(harness.machine.device.state(of: Self.notes) == .notRunning, "the core still killed the app")
    }

    @Test func aSpawnedAppIsKilledThroughItsGroupAndNotHeld() throws {
        var (harness, controller) = try ProcessesTests.installed()
        _ = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        harness.feed(.processSpawned(Self.notes, pid: 900))
        let (_, hello) = harness.introduce("app", app: Self.notes.rawValue, pid: 900)
        #expect(!hello.contains { if case .holdProcess = $0 { true } else { false } }, "the supervisor holds it")
        _ = harness.answerAllCallbacks(in: hello)
        _ = harness.request(controller, "fire", #"{"event":"home"}"#)
        #expect(Self.kills(harness.advance(by: .seconds(10))) == [.group])
    }

    @Test func anIdInstalledAlreadyIsRefusedWithItsText() throws {
        var (harness, controller) = try ProcessesTests.installed()
        let (ticket, _) = harness.request(controller, "install", #"{"path":"/apps/other.json"}"#)
        let answer = harness.feed(.installed(ticket, .success(ProcessesTests.notes)))
        guard case .failure(let error)? = answer.reply(to: ticket) else {
            Issue.record("a second install of the same id must be refused")
            return
        }
        #expect(error.name == "jsonrpc.InvalidParams")
        #expect(error.message.contains("com.example.Notes is installed already: uninstall it first"))
        let (apps, listed) = harness.request(controller, "apps")
        #expect(try listed.reply(to: apps)?.get()["apps"]?.arrayValue?.count == 1)
    }

    @Test func aSpawnCarriesTheWholeInstalledApp() throws {
        var (harness, controller) = try ProcessesTests.installed()
        let (_, launch) = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        #expect(launch.contains { if case .spawn(ProcessesTests.notes) = $0 { true } else { false } })
    }

    @Test func aRefusedSpawnIsJournaledLaunchFailedAndFailsTheLaunch() throws {
        var (harness, controller) = try ProcessesTests.installed()
        let (ticket, _) = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        let effects = harness.feed(.spawnRefused(Self.notes, because: "alreadyRunning"))
            + harness.feed(.commitJournal)
        guard case .failure(let error)? = effects.reply(to: ticket) else {
            Issue.record("the launch must fail")
            return
        }
        #expect(error.name == "lifebus.LaunchFailed")
        #expect(error.message.contains("cannot launch com.example.Notes: alreadyRunning"))
        #expect(ProcessesTests.processEvents(harness) == ["launchFailed"])
    }

    /// `notes` (installed with `modes`) spawned, connected, running a background task, and sent home: it stays in
    /// `background` with no callback outstanding.
    static func inBackground(modes: [String]) throws -> MachineHarness {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let (ticket, _) = harness.request(controller, "install", #"{"path":"/apps/notes.json"}"#)
        var notes = ProcessesTests.notes
        notes.flags = AppFlags(backgroundModes: modes)
        harness.feed(.installed(ticket, .success(notes)))
        _ = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        harness.feed(.processSpawned(Self.notes, pid: 900))
        let (app, hello) = harness.introduce("app", app: Self.notes.rawValue, pid: 900)
        _ = harness.answerAllCallbacks(in: hello)
        let (begin, began) = harness.request(app, "beginBackgroundTask", "{}")
        #expect(began.succeeded(begin))
        let (_, home) = harness.request(controller, "fire", #"{"event":"home"}"#)
        _ = harness.answerAllCallbacks(in: home)
        #expect(harness.machine.device.state(of: Self.notes) == .background)
        return harness
    }

    @Test(arguments: [([String](), BrokerMachine.MemoryStanding.suspended), (["audio"], .background)])
    func aBackgroundAppWithoutBackgroundModesWeighsAsSuspended(
        modes: [String], standing: BrokerMachine.MemoryStanding
    ) throws {
        let harness = try Self.inBackground(modes: modes)
        let weighed = harness.machine.memoryStandings(of: [(Self.notes, 300), ("com.example.Gone", 10)])
        #expect(weighed == [BrokerMachine.SampledApp(app: Self.notes, residentBytes: 300, standing: standing,
                                                     limit: nil)], "an app not running is not weighed")
    }

    /// A jetsam the policy planned for an app settling toward `suspended` waits for a round that finds it there;
    /// one for an app with background modes terminates it (`willTerminate`).
    @Test(arguments: [([String](), LifecycleState.background), (["audio"], .notRunning)])
    func aJetsamPlannedForASettlingAppWaitsButOneForABackgroundAppTerminatesIt(
        modes: [String], end: LifecycleState
    ) throws {
        var harness = try Self.inBackground(modes: modes)
        let kill = MemoryRound.Kill(app: Self.notes, reason: .jetsam, residentBytes: 300, limit: nil)
        let effects = harness.feed(.memorySampled(MemoryRound(
            samples: [Self.notes: 300], level: .critical, totalBytes: 300, deviceMemory: 400, kills: [kill])))
        let answered = harness.answerAllCallbacks(in: effects)
        #expect((effects + answered).callbacks.contains { $0.method == "willTerminate" } == (end == .notRunning))
        #expect(harness.machine.device.state(of: Self.notes) == end)
    }
}

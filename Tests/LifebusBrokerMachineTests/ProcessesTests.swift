import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// Installed apps in the machine: `install` handed to the driver, a launch becoming a spawn, process records, the
/// manifest's flags over `hello`, and a failed spawn answering `lifebus.LaunchFailed`.
@Suite struct ProcessesTests {
    static let notes = InstalledApp(
        id: "com.example.Notes", flags: AppFlags(exitsOnSuspend: true), executable: "/bin/notes", memoryLimit: nil,
        logPath: "/tmp/logs/com.example.Notes.log", manifestPath: "/apps/notes.json")

    /// A machine with `notes` installed through `install` and a controller session.
    static func installed() throws -> (harness: MachineHarness, controller: SessionID) {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let (ticket, effects) = harness.request(controller, "install", #"{"path":"/apps/notes.json"}"#)
        let asked = effects.contains {
            if case .install(ticket, .file("/apps/notes.json", environment: [:])) = $0 { true } else { false }
        }
        #expect(asked, "the driver is asked to read the manifest")
        let answer = harness.feed(.installed(ticket, .success(notes)))
        #expect(try answer.reply(to: ticket)?.get()["state"]?.stringValue == "notRunning")
        return (harness, controller)
    }

    static func processEvents(_ harness: MachineHarness) -> [String] {
        harness.journal.entries(app: nil).compactMap {
            if case .process(let record) = $0 { record.event.rawValue } else { nil }
        }
    }

    @Test func aLaunchOfAnInstalledAppSpawnsItAndItsProcessIsRecorded() throws {
        var (harness, controller) = try Self.installed()
        let (_, launch) = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        #expect(launch.contains { if case .spawn(let app) = $0 { app.id == "com.example.Notes" } else { false } })
        harness.feed(.processSpawned("com.example.Notes", pid: 900))
        let (_, hello) = harness.introduce("app", app: "com.example.Notes", pid: 900)
        _ = harness.answerAllCallbacks(in: hello)
        #expect(harness.machine.device.state(of: "com.example.Notes") == .active)
        // The manifest's exitsOnSuspend wins over the hello's (which said nothing): home terminates it.
        let (_, home) = harness.request(controller, "fire", #"{"event":"home"}"#)
        _ = harness.answerAllCallbacks(in: home)
        #expect(harness.machine.device.state(of: "com.example.Notes") == .notRunning)
        harness.feed(.processExited("com.example.Notes", pid: 900, .exited(0), killedFor: nil))
        #expect(Self.processEvents(harness).first == "started")
        #expect(Self.processEvents(harness).last == "exited")
        let (ticket, apps) = harness.request(controller, "apps")
        let line = try #require(try apps.reply(to: ticket)?.get()["apps"]?[0])
        #expect(line["spawned"]?.boolValue == false, "its process was reaped")
    }

    /// A launch asked after the app ended but before its process was reaped waits for the reaping, then spawns;
    /// the old process's exit is not taken for the new launch's ("exited before it connected").
    @Test func aLaunchBeforeThePreviousProcessIsReapedSpawnsAtItsExitAndDoesNotFail() throws {
        var (harness, controller) = try Self.installed()
        _ = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        harness.feed(.processSpawned("com.example.Notes", pid: 900))
        let (app, hello) = harness.introduce("app", app: "com.example.Notes", pid: 900)
        _ = harness.answerAllCallbacks(in: hello)
        let (_, home) = harness.request(controller, "fire", #"{"event":"home"}"#)
        _ = harness.answerAllCallbacks(in: home)
        harness.feed(.ended(app))  // it exits on suspend: its connection ends before its process is reaped
        let (ticket, relaunch) = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        #expect(!relaunch.contains { if case .spawn = $0 { true } else { false } }, "not before the reaping")
        let reaped = harness.feed(.processExited("com.example.Notes", pid: 900, .exited(0), killedFor: nil))
            + harness.feed(.commitJournal)
        #expect(reaped.contains { if case .spawn(let app) = $0 { app.id == "com.example.Notes" } else { false } })
        #expect(reaped.reply(to: ticket) == nil, "the launch is still waiting for the new process, not failed")
        #expect(!Self.processEvents(harness).contains("launchFailed"))
    }

    @Test func aFailedSpawnAnswersTheLaunchLaunchFailedWithThePathAndErrno() throws {
        var (harness, controller) = try Self.installed()
        let (ticket, _) = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        let effects = harness.feed(.launchFailed("com.example.Notes", path: "/bin/notes", errno: 2, detail: "gone"))
            + harness.feed(.commitJournal)
        let error = try #require(effects.reply(to: ticket).flatMap { if case .failure(let e) = $0 { e } else { nil } })
        #expect(error.name == "lifebus.LaunchFailed")
        #expect(error.data?["path"]?.stringValue == "/bin/notes")
        #expect(error.data?["errno"]?.int64Value == 2)
        #expect(Self.processEvents(harness) == ["launchFailed"])
    }

    @Test func uninstallForgetsTheAppAndAnUnknownOneIsNotFound() throws {
        var (harness, controller) = try Self.installed()
        let (ticket, effects) = harness.request(controller, "uninstall", #"{"id":"com.example.Notes"}"#)
        #expect(effects.succeeded(ticket))
        let (again, refused) = harness.request(controller, "uninstall", #"{"id":"com.example.Notes"}"#)
        #expect(refused.errorName(of: again) == "lifebus.AppNotFound")
        let (bad, invalid) = harness.request(controller, "install", #"{"path":"/a.json","manifest":{}}"#)
        #expect(invalid.errorName(of: bad) == "jsonrpc.InvalidParams")
    }
}

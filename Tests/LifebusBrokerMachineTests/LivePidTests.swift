import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import Testing

/// `status` and `apps` show the pid of an app's live process only (`Protocol/README.md` §11.2, §16.5): once its
/// process has ended (exited, killed, crashed) or its connection is gone, `pid` is `null`, not the last one's.
@Suite struct LivePidTests {
    static let notes: AppID = "com.example.Notes"

    static func pids(_ harness: inout MachineHarness, _ controller: SessionID) throws -> (status: JSONValue?,
                                                                                          apps: JSONValue?) {
        let (statusTicket, status) = harness.request(controller, "status", #"{"app":"com.example.Notes"}"#)
        let (appsTicket, apps) = harness.request(controller, "apps")
        return ((try? status.reply(to: statusTicket)?.get())?["apps"]?[0]?["pid"],
                try apps.reply(to: appsTicket)?.get()["apps"]?[0]?["pid"])
    }

    @Test func aSpawnedAppWhoseProcessWasKilledShowsNoPid() throws {
        var (harness, controller) = try ProcessesTests.installed()
        _ = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        harness.feed(.processSpawned(Self.notes, pid: 900))
        let (app, hello) = harness.introduce("app", app: Self.notes.rawValue, pid: 900)
        _ = harness.answerAllCallbacks(in: hello)
        let running = try Self.pids(&harness, controller)
        #expect(running.status == .integer(900) && running.apps == .integer(900), "a running app shows its pid")
        let terminate = #"{"event":"terminate","app":"com.example.Notes","byUser":true}"#
        let (_, kill) = harness.request(controller, "fire", terminate)
        _ = harness.answerAllCallbacks(in: kill)
        harness.feed(.ended(app))
        harness.feed(.processExited(Self.notes, pid: 900, .signaled(9), killedFor: .user))
        #expect(harness.machine.device.state(of: Self.notes) == .notRunning)
        let ended = try Self.pids(&harness, controller)
        #expect(ended.status == .null, "status: no pid once the process has ended")
        #expect(ended.apps == .null, "apps: no pid once the process has ended")
    }

    @Test func anAppThatConnectedOnItsOwnShowsNoPidOnceItsConnectionIsGone() throws {
        var (harness, controller) = try ProcessesTests.installed()
        let (app, hello) = harness.introduce("app", app: Self.notes.rawValue, pid: 777)
        _ = harness.answerAllCallbacks(in: hello)
        #expect(try Self.pids(&harness, controller).status == .integer(777))
        harness.feed(.ended(app))  // killed: its connection drops, the core journals it crashed
        #expect(harness.machine.device.state(of: Self.notes) == .notRunning)
        let ended = try Self.pids(&harness, controller)
        #expect(ended.status == .null && ended.apps == .null, "no live process is known")
    }

    @Test func aSpawnedProcessNotYetConnectedShowsItsPid() throws {
        var (harness, controller) = try ProcessesTests.installed()
        _ = harness.request(controller, "fire", #"{"event":"launch","app":"com.example.Notes"}"#)
        harness.feed(.processSpawned(Self.notes, pid: 901))
        let waiting = try Self.pids(&harness, controller)
        #expect(waiting.apps == .integer(901), "the process is live while the launch waits for its hello")
    }
}

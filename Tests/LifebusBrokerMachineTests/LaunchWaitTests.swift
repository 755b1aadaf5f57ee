import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// A launch that waits for its app's process to connect, as controllers see it: `status` shows the launch budget
/// while it waits (not once the app connected), a launch whose budget runs out answers `lifebus.TimedOut` (not a
/// refusal), and a `wait` that times out says whether the app is connected.
@Suite struct LaunchWaitTests {
    static let notes = "com.example.Notes"

    static func status(_ harness: inout MachineHarness, _ controller: SessionID) throws -> StatusResult {
        let (ticket, effects) = harness.request(controller, "status", #"{"app":"\#(notes)"}"#)
        return try StatusResult(json: try #require(effects.reply(to: ticket)).get())
    }

    @Test func aLaunchThatRunsOutOfBudgetIsATimeoutNamingTheAppAndTheBudget() throws {
        var (harness, controller) = try ProcessesTests.installed()
        let (ticket, _) = harness.request(controller, "fire", #"{"event":"launch","app":"\#(Self.notes)"}"#)
        harness.feed(.processSpawned("com.example.Notes", pid: 900))
        #expect(try Self.status(&harness, controller).apps.first?.launchBudgetMs == 20_000)
        let effects = harness.advance(by: .seconds(21)) + harness.feed(.commitJournal)
        let error = try #require(effects.reply(to: ticket).flatMap { if case .failure(let e) = $0 { e } else { nil } })
        #expect(error.name == "lifebus.TimedOut")
        #expect(error.data?["reason"]?.stringValue == "launchTimedOut")
        #expect(error.data?["app"]?.stringValue == Self.notes)
        #expect(error.data?["budgetMs"]?.doubleValue == 20_000)
        #expect(error.message == "launch \(Self.notes): \(Self.notes) did not connect within its launch budget (20s)")
    }

    @Test func aConnectedAppShowsNoLaunchBudget() throws {
        var (harness, controller) = try ProcessesTests.installed()
        _ = harness.request(controller, "fire", #"{"event":"launch","app":"\#(Self.notes)"}"#)
        harness.feed(.processSpawned("com.example.Notes", pid: 900))
        _ = harness.introduce("app", app: Self.notes, pid: 900)
        #expect(try Self.status(&harness, controller).apps.first?.launchBudgetMs == nil)
    }

    @Test func aWaitThatTimesOutSaysWhetherTheAppIsConnected() throws {
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        let params = #"{"app":"com.example.Never","state":"active","timeoutMs":100}"#
        let (ticket, _) = harness.request(controller, "wait", params)
        let effects = harness.advance(by: .milliseconds(200))
        let error = try #require(effects.reply(to: ticket).flatMap { if case .failure(let e) = $0 { e } else { nil } })
        let timeout = try #require(WaitTimeout(error))
        #expect(timeout.connected == false && timeout.neverConnected)
    }
}

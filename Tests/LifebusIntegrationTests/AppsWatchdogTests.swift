import Glibc
import LifebusProtocol
import Testing

/// The broker's enforcement against real app processes: the watchdog kills an app that overruns its budget, and an
/// app that dies mid-callback is recorded as crashed without disturbing the others.
@Suite struct AppsWatchdogTests {
    @Test func aWillTerminateThatOverrunsItsScaledBudgetIsKilledByTheWatchdog() throws {
        let broker = try BrokerFixture(arguments: ["--time-scale", "0.01"])
        let app = try broker.subscribe("com.example.Slow", ["--delay", "willTerminate=7s"])
        #expect(try broker.reached("com.example.Slow", "active"))

        let fired = try broker.cli(["fire", "terminate", "--app", "com.example.Slow", "--json"])
        #expect(fired.status == 0, "\(fired.err)")
        let records = parsed(fired.out)?["transitions"]?.arrayValue ?? []
        let terminate = records.first { $0["callback"]?.stringValue == "willTerminate" }
        #expect(terminate?["outcome"]?.stringValue == "watchdog", "\(fired.out)")
        #expect(terminate?["budgetMs"]?.doubleValue == 50)
        #expect(terminate?["pid"]?.int64Value == Int64(app.pid))
        #expect(app.waitForExit() == 128 + SIGKILL, "the broker killed the app with SIGKILL")
        #expect(try broker.reached("com.example.Slow", "notRunning"))
        try SupervisionCheck.run(broker)
    }

    @Test func anAppKilledMidCallbackIsCrashedAndAnotherAppKeepsWorking() throws {
        let broker = try BrokerFixture()
        let other = try broker.subscribe("com.example.Other")
        #expect(try broker.reached("com.example.Other", "active"))
        let slow = try broker.subscribe("com.example.Slow", ["--delay", "didEnterBackground=10s"])
        #expect(try broker.reached("com.example.Slow", "active"))
        #expect(try broker.reached("com.example.Other", "suspended"))

        #expect(try broker.cli(["fire", "home", "--no-wait"]).status == 0)
        let callback = slow.readJSONLine { $0["callback"]?.stringValue == "didEnterBackground" }
        #expect(callback?["state"]?.stringValue == "background")
        slow.signal(SIGKILL)
        #expect(slow.wait() == 128 + SIGKILL)

        #expect(try broker.reached("com.example.Slow", "notRunning"))
        let last = try broker.transitions(of: "com.example.Slow").last
        #expect(last.map(summary) == "didEnterBackground inactive->notRunning crashed")

        let activated = try broker.cli(["fire", "activate", "com.example.Other", "--json"])
        #expect(activated.status == 0, "\(activated.err)")
        let outcomes = (parsed(activated.out)?["transitions"]?.arrayValue ?? []).map(summary)
        #expect(outcomes == [
            "willEnterForeground suspended->inactive ok", "didBecomeActive inactive->active ok",
        ])
        #expect(try broker.reached("com.example.Other", "active"))
        #expect(try broker.cli(["ping"]).status == 0)
        #expect(other.isAlive)
        try SupervisionCheck.run(broker)
    }

    @Test func aBackgroundTaskKeepsTheAppRunningUntilItEnds() throws {
        let broker = try BrokerFixture()
        let (app, hello) = try RawPeer.app(broker, id: "com.example.Upload")
        #expect(hello?["result"] != nil)
        #expect(app.answer(until: "didBecomeActive"))
        let begun = app.call("beginBackgroundTask", #"{"name":"upload"}"#)
        let taskID = try #require(begun?["result"]?["taskID"]?.int64Value)

        let controller = try RawPeer.controller(broker)
        #expect(controller.call("fire", #"{"event":"home","wait":false}"#)?["result"] != nil)
        #expect(app.answer(until: "didEnterBackground"))
        // The app's own ping is answered after the broker handled its didEnterBackground answer (one connection is
        // read in order): from here the app has nothing owed but its task.
        #expect(app.call("ping")?["result"] != nil)
        let waiting = try broker.cli(["wait", "com.example.Upload", "suspended", "--timeout", "300ms"])
        #expect(waiting.status == 1)
        #expect(waiting.out.contains("it is background"), "\(waiting.out)")

        #expect(app.call("endBackgroundTask", #"{"taskID":\#(taskID)}"#)?["result"] == .object([:]))
        #expect(try broker.reached("com.example.Upload", "suspended", timeout: "2s"))
        let again = app.call("endBackgroundTask", #"{"taskID":\#(taskID)}"#)?["error"]
        #expect(again?["data"]?["name"]?.stringValue == "jsonrpc.InvalidParams",
                "a task ends once: \(again.map(\.jsonText) ?? "no error")")
        #expect(again?["data"]?["field"]?.stringValue == "taskID", "the error names the ended task's id")
        try SupervisionCheck.run(broker)
    }

    @Test func aBackgroundTaskNeverEndedExpiresAndTheAppIsKilled() throws {
        // On the manual clock (ios7: 180 s of background time, the warning 5 s before its end) the app is sure to
        // have read the warning before the kill: on a scaled real clock a loaded machine could kill it first.
        let broker = try BrokerFixture(arguments: ["--clock", "manual"])
        let app = try ScriptedApp.start(broker, id: "com.example.Forgetful")
        let begun = app.readJSONLine { $0["id"]?.stringValue == "task" }
        #expect(begun?["result"]?["taskID"] != nil, "\(app.stderr.readAll(timeout: .seconds(1)))")

        let home = try broker.cli(["fire", "home", "--json"])
        #expect(home.status == 0, "\(home.err)")
        #expect(try broker.reached("com.example.Forgetful", "background"))
        #expect(try broker.cli(["clock", "advance", "175s"]).status == 0)
        let expiring = app.readJSONLine { $0["method"]?.stringValue == "backgroundTaskExpiring" }
        #expect(expiring?["params"]?["taskID"] == begun?["result"]?["taskID"])
        #expect(try broker.transitions(of: "com.example.Forgetful").last?["to"]?.stringValue == "background",
                "alive until its background time is over")
        #expect(try broker.cli(["clock", "advance", "5s"]).status == 0)
        #expect(app.waitForExit() == 128 + SIGKILL)

        #expect(try broker.reached("com.example.Forgetful", "notRunning"))
        let last = try broker.transitions(of: "com.example.Forgetful").last
        #expect(last?["outcome"]?.stringValue == "watchdog", "\(last?.jsonText ?? "no transition")")
        #expect(last?["from"]?.stringValue == "background")
        try SupervisionCheck.run(broker)
    }
}

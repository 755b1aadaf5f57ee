import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `status`, `history` and `reset` as a controller sees them; background tasks, memory reports and failed handlers
/// as an app sends them.
@Suite struct QueriesAndAppRequestsTests {
    @Test func statusReportsEachAppWithItsKernelPidStateAndSince() throws {
        var (harness, _) = MachineHarness.notesLaunched()
        let (controller, _) = harness.introduce("controller")
        let (ticket, effects) = harness.request(controller, "status", "{}")
        let result = try #require(try effects.reply(to: ticket)?.get())
        #expect(result["foreground"]?.stringValue == "com.example.Notes")
        let app = try #require(result["apps"]?[0])
        #expect(app["pid"]?.int64Value == 900)
        #expect(app["state"]?.stringValue == "active")
        #expect(app["sinceMs"]?.doubleValue == 20)
        #expect(app["connected"]?.boolValue == true)
        let (unknown, refused) = harness.request(controller, "status", #"{"app":"com.example.Nobody"}"#)
        #expect(refused.errorName(of: unknown) == "lifebus.AppNotFound")
    }

    @Test func historyReadsTheJournalsRetainedEntriesOfOneApp() throws {
        var (harness, app) = MachineHarness.notesLaunched()
        _ = harness.request(app, "mark", #"{"name":"state-restored"}"#)
        let (observer, _) = harness.introduce("observer")
        let (ticket, effects) = harness.request(observer, "history", #"{"app":"com.example.Notes"}"#)
        let entries = try #require(try effects.reply(to: ticket)?.get())["entries"]?.arrayValue ?? []
        #expect(entries.map { $0["type"]?.stringValue } == ["transition", "transition", "mark"])
    }

    @Test func resetIsAnEventAnsweredWhenItsTransitionsComplete() throws {
        var (harness, _) = MachineHarness.notesLaunched()
        let (controller, _) = harness.introduce("controller")
        let (ticket, effects) = harness.request(controller, "reset")
        let answered = harness.answerAllCallbacks(in: effects)
        let result = try #require(try (effects + answered).reply(to: ticket)?.get())
        #expect(result["event"]?.stringValue == "reset")
        #expect(result["completed"]?.boolValue == true)
    }

    @Test func backgroundTasksAreNumberedAndBoundedPerApp() throws {
        var (harness, app) = MachineHarness.notesLaunched()
        var numbers: [Int64] = []
        for _ in 0..<32 {
            let (ticket, effects) = harness.request(app, "beginBackgroundTask", "{}")
            numbers.append(try #require(try effects.reply(to: ticket)?.get())["taskID"]?.int64Value ?? 0)
        }
        #expect(numbers == Array(1...32))
        let (over, refused) = harness.request(app, "beginBackgroundTask", "{}")
        #expect(refused.errorName(of: over) == "lifebus.LimitExceeded")
        let (end, ended) = harness.request(app, "endBackgroundTask", #"{"taskID":1}"#)
        #expect(ended.succeeded(end))
        let (unknown, invalid) = harness.request(app, "endBackgroundTask", #"{"taskID":999}"#)
        #expect(invalid.errorName(of: unknown) == "jsonrpc.InvalidParams")
    }

    @Test func aMemoryReportReachesTheCore() {
        var (harness, app) = MachineHarness.notesLaunched()
        let (ticket, effects) = harness.request(app, "reportMemory", #"{"bytes":123456}"#)
        #expect(effects.succeeded(ticket))
        #expect(harness.machine.device.snapshot(of: "com.example.Notes")?.footprint == 123_456)
    }

    @Test func aCallbackAnsweredWithAnErrorIsRecordedAsAFailedHandler() throws {
        var (harness, _) = MachineHarness.notesLaunched()
        let (controller, _) = harness.introduce("controller")
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let callback = try #require(fired.callbacks.first)
        let failed = harness.feed(.callbackAnswered(
            callback.app, callback.id, .failure(RPCError(code: -32000, message: "the handler threw"))))
        let transitions = try #require(try failed.reply(to: fire)?.get())["transitions"]?.arrayValue ?? []
        #expect(transitions.first?["handlerFailed"]?.boolValue == true)
    }

    @Test func aCallbackWhoseConnectionClosedIsLeftToTheDisconnect() throws {
        var (harness, app) = MachineHarness.notesLaunched()
        let (controller, _) = harness.introduce("controller")
        let (fire, fired) = harness.request(controller, "fire", #"{"event":"call"}"#)
        let callback = try #require(fired.callbacks.first)
        let closed = harness.feed(.callbackAnswered(
            callback.app, callback.id, .failure(RPCError(.connectionClosed, "gone"))))
        #expect(closed.reply(to: fire) == nil)
        let ended = harness.feed(.ended(app))
        let transitions = try #require(try ended.reply(to: fire)?.get())["transitions"]?.arrayValue ?? []
        #expect(transitions.last?["outcome"]?.stringValue != "ok")
    }
}

import Glibc
import LifebusJSON
import Testing

/// The background life end to end (issue 28, `Protocol/README.md` §10.2): the real broker on a manual clock and the
/// real FeedReader app — a refresh task that forgets `setTaskCompleted` killed at 30 virtual seconds, a silent push
/// launching an app that is not running into the background, and a draft lost to (or kept from) a locked device.
@Suite struct BackgroundExecutionTests {
    static let id = "com.example.FeedReader"

    /// A broker on the manual clock under `ios17`.
    static func broker() throws -> BrokerFixture {
        try BrokerFixture(arguments: ["--profile", "ios17", "--clock", "manual"])
    }

    static func records(_ broker: BrokerFixture, _ type: String) throws -> [JSONValue] {
        try broker.history().filter { $0["type"]?.stringValue == type }
    }

    static func markNames(_ broker: BrokerFixture) throws -> [String] {
        try broker.marks(of: id).compactMap { $0["name"]?.stringValue }
    }

    @Test func aRefreshTaskThatForgetsSetTaskCompletedIsKilledAtThirtyVirtualSeconds() throws {
        let broker = try Self.broker()
        let app = try ChildProcess("FeedReader", [
            "--socket", broker.socketPath, "--state-file", broker.socketPath + ".feed", "--forgets-completion",
        ])
        #expect(try broker.reached(Self.id, "active"))
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(Self.id, "suspended"))
        let submitted = try Self.records(broker, "task").first
        #expect(submitted?["event"]?.stringValue == "submitted")
        #expect(submitted?["identifier"]?.stringValue == "com.example.FeedReader.refresh")
        let pending = try broker.status()?["apps"]?[0]?["tasks"]?[0]
        #expect(pending?["state"]?.stringValue == "pending" && pending?["earliestBeginMs"]?.doubleValue == 900_000)

        #expect(try broker.cli(["clock", "advance", "15m"]).status == 0)
        #expect(try AppsSupervisedTests.eventually { try Self.markNames(broker).contains("refresh-started") })
        let launched = try #require(try Self.records(broker, "task").first { $0["event"]?.stringValue == "launched" })
        let running = try broker.status()?["apps"]?[0]?["tasks"]?[0]
        #expect(running?["state"]?.stringValue == "running" && running?["deadlineMs"]?.doubleValue == 930_000)
        #expect(try broker.cli(["clock", "advance", "30s"]).status == 0)
        #expect(app.waitForExit() != 0, "killed, not exited")
        let steps = try Self.records(broker, "task").compactMap { $0["event"]?.stringValue }
        #expect(steps == ["submitted", "launched", "expiring", "expired"])
        let kill = try #require(try AppsSupervisedTests.processRecords(broker, Self.id).last)
        #expect(kill["reason"]?.stringValue == "backgroundTaskExpired", "\(kill)")
        let expired = try #require(try Self.records(broker, "task").last)
        let lived = (expired["atMs"]?.doubleValue ?? 0) - (launched["atMs"]?.doubleValue ?? 0)
        #expect(lived == 30_000, "killed 30 virtual seconds after its launch handler was called")
        #expect(!(try Self.markNames(broker).contains("refresh-completed")))
    }

    @Test func aSilentPushLaunchesAnAppThatIsNotRunningIntoTheBackground() throws {
        let broker = try Self.broker()
        let manifest = AppsSupervisedTests.manifest(
            Self.id, in: broker.ownFolder, executable: ChildProcess.productsFolder + "/FeedReader",
            arguments: ["--state-file", broker.socketPath + ".feed"])
        #expect(try broker.cli(["install", manifest]).status == 0)
        let push = try broker.cli(["fire", "push", Self.id, "--silent", "--payload", #"{"feed":7}"#])
        #expect(push.status == 0, "\(push.out) \(push.err)")
        #expect(try AppsSupervisedTests.eventually {
            try Self.records(broker, "push").contains { $0["event"]?.stringValue == "answered" }
        })
        let callbacks = try broker.transitions(of: Self.id).compactMap { $0["callback"]?.stringValue }
        #expect(callbacks.prefix(3) == ["didFinishLaunching", "didEnterBackground", "didReceiveRemoteNotification"])
        #expect(!callbacks.contains("willEnterForeground") && !callbacks.contains("didBecomeActive"))
        let answered = try Self.records(broker, "push").last
        #expect(answered?["result"]?.stringValue == "newData")
        #expect(answered?["payload"]?["feed"]?.int64Value == 7)
        let launched = try broker.marks(of: Self.id).first { $0["name"]?.stringValue == "launched" }
        #expect(launched?["data"]?["background"]?.boolValue == true)
        _ = try broker.cli(["fire", "terminate", "--app", Self.id])
    }

    /// The refresh task run 15 s after `fire sleep` writes the draft: `EPERM`. The app that kept running in the
    /// background (a background task) was told at the lock and saved it then, and does not write while locked.
    @Test(arguments: [false, true])
    func aDraftWrittenFifteenSecondsAfterSleepIsLostUnlessSavedWhenProtectedDataGoes(savesOnLock: Bool) throws {
        let broker = try Self.broker()
        let state = broker.socketPath + ".feed"
        defer { unlink(state + ".draft") }
        let app = try ChildProcess("FeedReader", ["--socket", broker.socketPath, "--state-file", state]
            + (savesOnLock ? ["--saves-on-lock"] : []))
        #expect(try broker.reached(Self.id, "active"))
        #expect(try broker.cli(["fire", "sleep"]).status == 0)
        #expect(try broker.cli(["protected-data"]).status == 0, "still available just after the lock")
        #expect(try broker.cli(["clock", "advance", "15s"]).status == 0)
        let locked = try broker.cli(["protected-data"])
        #expect(locked.status == 1 && locked.out == "unavailable\n", "\(locked)")
        #expect(try broker.status()?["protectedDataAvailable"]?.boolValue == false)
        let run = try broker.cli(["fire", "bgtask", Self.id, "com.example.FeedReader.refresh"])
        #expect(run.status == 0, "\(run.out) \(run.err)")
        // The app that saved at the lock does not try while protected data is unavailable (draft-deferred).
        let attempt = savesOnLock ? "draft-deferred" : "draft-lost"
        #expect(try AppsSupervisedTests.eventually { try Self.markNames(broker).contains(attempt) })
        let lost = try broker.marks(of: Self.id).last { $0["name"]?.stringValue == "draft-lost" }
        #expect(savesOnLock ? lost == nil : lost?["data"]?["errno"]?.stringValue == "EPERM")
        let kept = access(state + ".draft", F_OK) == 0
        #expect(kept == savesOnLock, "the draft survives only when saved on protectedDataWillBecomeUnavailable")
        #expect(try Self.markNames(broker).contains("draft-saved") == savesOnLock)
        #expect(try Self.records(broker, "protectedData").map { $0["available"]?.boolValue } == [false])
        _ = try broker.cli(["fire", "wake"])
        _ = try broker.cli(["fire", "terminate", "--app", Self.id])
        _ = app.waitForExit()
    }
}

import Glibc
import LifebusProtocol
import Testing

/// An installed app killed and relaunched by the broker: the launch options say why, name the previous pid and
/// hand back the restoration payload the app saved, and the journal shows the evidence (pids, payload size, hash).
@Suite struct AppsRelaunchTests {
    /// ReturnMeTo installed, with its state file in a fresh folder.
    static func installReturnMeTo(_ broker: BrokerFixture) throws -> String {
        let state = broker.socketPath + ".returnmeto-state"  // removed with the fixture
        let path = AppsSupervisedTests.manifest(
            "com.example.ReturnMeTo", in: broker.ownFolder, executable: ChildProcess.productsFolder + "/ReturnMeTo",
            arguments: ["--state-file", state])
        #expect(try broker.cli(["install", path]).status == 0)
        return "com.example.ReturnMeTo"
    }

    @Test func aJetsammedAppIsRelaunchedWithItsReasonItsPreviousPidAndItsRestorationState() throws {
        let broker = try BrokerFixture()
        let id = try Self.installReturnMeTo(broker)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let first = try #require(try AppsSupervisedTests.processRecords(broker, id).first?["pid"]?.int64Value)

        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(id, "suspended"))
        #expect(try broker.cli(["fire", "memory-warning", "--level", "critical"]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))

        let records = try AppsSupervisedTests.processRecords(broker, id)
        let killed = records.first { $0["event"]?.stringValue == "killed" }
        #expect(killed?["reason"]?.stringValue == "jetsam")
        let launching = try #require(records.last { $0["event"]?.stringValue == "launching" }?["launch"])
        #expect(launching["reason"]?.stringValue == "afterJetsam")
        #expect(launching["previousPid"]?.int64Value == first)
        #expect(launching["restorationState"] == .null, "the journal keeps the payload's size and hash, not it")
        #expect(launching["restoredBytes"]?.int64Value == Int64("shown=1".utf8.count))
        #expect(launching["restoredHash"]?.stringValue?.hasPrefix("fnv1a64:") == true)
        let second = records.last { $0["event"]?.stringValue == "started" }?["pid"]?.int64Value
        #expect(second != nil && second != first)

        let options = try broker.marks(of: id).last { $0["name"]?.stringValue == "launch-options" }?["data"]
        #expect(options?["reason"]?.stringValue == "afterJetsam")
        #expect(options?["previousPid"]?.int64Value == first)
        #expect(options?["restorationState"]?.stringValue == "shown=1", "the app got its payload back")
        try SupervisionCheck.run(broker)
    }

    @Test func underIOS3CallEndRelaunchesTheInstalledAppThatWasInFront() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios3"])
        let id = "com.example.Caller"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        #expect(try broker.cli(["fire", "call"]).status == 0)
        #expect(try broker.cli(["fire", "call", "--answer"]).status == 0)
        #expect(try broker.reached(id, "notRunning"))
        #expect(try broker.cli(["fire", "call", "--end"]).status == 0)
        #expect(try broker.reached(id, "active"), "the broker spawned it again by itself")
        let records = try AppsSupervisedTests.processRecords(broker, id)
        #expect(records.filter { $0["event"]?.stringValue == "started" }.count == 2)
        let relaunch = records.last { $0["event"]?.stringValue == "launching" }?["launch"]
        #expect(relaunch?["reason"]?.stringValue == "callEnded")
        try SupervisionCheck.run(broker)
    }

    @Test func aPayloadOverTheLimitIsRefusedAndOnlyInstalledAppsMaySaveOne() throws {
        let broker = try BrokerFixture()
        let manifest = AppsSupervisedTests.manifest("com.example.Saver", in: broker.ownFolder)
        #expect(try broker.cli(["install", manifest]).status == 0)
        // The installed app connects on its own (as a raw peer answering callbacks at once).
        let (saver, hello) = try RawPeer.app(broker, id: "com.example.Saver")
        #expect(hello?["result"] != nil)
        let big = String(repeating: "a", count: LaunchContext.maxRestorationBytes + 1)
        let refused = saver.call("saveRestorationState", #"{"state":"\#(big)"}"#)
        #expect(refused?["error"]?["data"]?["name"]?.stringValue == "lifebus.LimitExceeded")
        #expect(refused?["error"]?["data"]?["limit"]?.stringValue == "restorationStateBytes")
        #expect(saver.call("saveRestorationState", #"{"state":"card=2"}"#)?["result"] != nil)

        let (other, _) = try RawPeer.app(broker, id: "com.example.NotInstalled")
        let answer = other.call("saveRestorationState", #"{"state":"x"}"#)
        #expect(answer?["error"]?["data"]?["name"]?.stringValue == "lifebus.AppNotFound")
        try SupervisionCheck.run(broker)
    }
}

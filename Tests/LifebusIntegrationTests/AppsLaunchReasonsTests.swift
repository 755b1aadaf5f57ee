import Glibc
import LifebusJSON
import Testing

/// Issue 7 items 2–4 and 12 through the broker: `activate` of an installed app that is not running spawns it (its
/// launch journaled in parts, observers told), a relaunch names how the previous process ended (`afterCrash`,
/// `afterWatchdog`), and an installed app started by hand gets its manifest's flags, not its `hello`'s, with the
/// difference logged.
@Suite struct AppsLaunchReasonsTests {
    /// The `launch` options of the app's last `launching` process record.
    static func lastLaunch(_ broker: BrokerFixture, _ id: String) throws -> JSONValue? {
        try AppsSupervisedTests.processRecords(broker, id).last { $0["event"]?.stringValue == "launching" }?["launch"]
    }

    static func exited(_ broker: BrokerFixture, _ id: String) throws -> Bool {
        try AppsSupervisedTests.eventually {
            try AppsSupervisedTests.processRecords(broker, id).contains { $0["event"]?.stringValue == "exited" }
        }
    }

    @Test func activateOfAnInstalledAppNotRunningSpawnsItAndJournalsItsLaunchInParts() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Tapped"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        let observer = RawPeer(client: try broker.connect())
        #expect(parsed(observer.client.hello(role: "observer"))?["result"] != nil)
        let activate = try broker.cli(["fire", "activate", id, "--json"])
        #expect(activate.status == 0, "as tapping its icon: \(activate.err)")
        #expect(try broker.reached(id, "active"))
        let events = try AppsSupervisedTests.processRecords(broker, id).map { $0["event"]?.stringValue ?? "" }
        #expect(events == ["started", "connected", "launching"], "spawned, connected, launching")
        let parts = try broker.transitions(of: id).map(summary)
        #expect(parts == ["didFinishLaunching notRunning->inactive ok", "didBecomeActive inactive->active ok"])
        #expect(try Self.lastLaunch(broker, id)?["reason"]?.stringValue == "user")
        // Observers hear the process records as they are made (item 12).
        var heard: [String] = []
        observer.pump(timeout: .seconds(10)) { message in
            if message["method"]?.stringValue == "process" {
                heard.append(message["params"]?["event"]?.stringValue ?? "?")
            }
            return heard.count == 3
        }
        #expect(heard == ["started", "connected", "launching"])
        try SupervisionCheck.run(broker)
    }

    @Test func aRelaunchAfterACrashSaysAfterCrashWithThePreviousPid() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Crashy"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let pid = try #require(try AppsSupervisedTests.processRecords(broker, id).first?["pid"]?.int64Value)
        kill(Int32(pid), SIGKILL)  // not the broker's doing: a crash
        #expect(try Self.exited(broker, id))
        #expect(try broker.transitions(of: id).last.map(summary) == "none active->notRunning crashed")
        let exit = try AppsSupervisedTests.processRecords(broker, id).last
        #expect(exit?["signal"]?.int64Value == Int64(SIGKILL) && exit?["reason"] == .null, "\(exit?.jsonText ?? "")")

        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let launch = try Self.lastLaunch(broker, id)
        #expect(launch?["reason"]?.stringValue == "afterCrash", "\(launch?.jsonText ?? "")")
        #expect(launch?["previousPid"]?.int64Value == pid)
        try SupervisionCheck.run(broker)
    }

    @Test func aRelaunchAfterAWatchdogKillSaysAfterWatchdog() throws {
        let broker = try BrokerFixture(arguments: ["--budget", "didEnterBackground=100ms"])
        let id = "com.example.Sluggish"
        let manifest = AppsSupervisedTests.manifest(
            id, in: broker.ownFolder, extra: ["--delay", "didEnterBackground=60s"])
        #expect(try broker.cli(["install", manifest]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let pid = try #require(try AppsSupervisedTests.processRecords(broker, id).first?["pid"]?.int64Value)
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try Self.exited(broker, id))
        let records = try AppsSupervisedTests.processRecords(broker, id)
        #expect(records.first { $0["event"]?.stringValue == "killed" }?["reason"]?.stringValue == "watchdog")

        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let launch = try Self.lastLaunch(broker, id)
        #expect(launch?["reason"]?.stringValue == "afterWatchdog", "\(launch?.jsonText ?? "")")
        #expect(launch?["previousPid"]?.int64Value == pid)
        try SupervisionCheck.run(broker)
    }

    @Test func anInstalledAppStartedByHandGetsItsManifestsFlagsAndTheDifferenceIsLogged() throws {
        let broker = try BrokerFixture()
        let id = "com.example.ByHand"
        let manifest = AppsSupervisedTests.manifest(id, in: broker.ownFolder, exitsOnSuspend: true)
        #expect(try broker.cli(["install", manifest]).status == 0)
        let app = try broker.subscribe(id)  // its hello does not say exitsOnSuspend
        #expect(try broker.reached(id, "active"))
        let home = try broker.cli(["fire", "home", "--json"])
        let callbacks = (parsed(home.out)?["transitions"]?.arrayValue ?? []).compactMap { $0["callback"]?.stringValue }
        #expect(callbacks == ["willResignActive", "willTerminate"], "terminated, not suspended: \(home.out)")
        #expect(app.waitForExit() == 0)
        var logged = false
        while !logged, let line = broker.process.stderr.readLine(timeout: .seconds(10)) {
            logged = line.contains("the manifest's flags win over the app's hello") && line.contains(id)
        }
        #expect(logged, "the difference is logged")
        try SupervisionCheck.run(broker)
    }
}

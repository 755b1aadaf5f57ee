import Glibc
import LifebusJSON
import LifebusProtocol
import Testing

/// `status` and `apps --json` show no pid for an app whose process has ended: an installed app killed from outside,
/// and a `lifebus subscribe` app killed, read `pid: null` once the broker has seen the end.
@Suite struct AppsLivePidTests {
    /// The app's `pid` in `lifebus status --json` and (installed apps) `lifebus apps --json`.
    static func pids(_ broker: BrokerFixture, _ id: String) throws -> (status: JSONValue?, apps: JSONValue?) {
        let status = try broker.status()?["apps"]?.arrayValue?.first { $0["id"]?.stringValue == id }
        let apps = jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?.arrayValue?
            .first { $0["id"]?.stringValue == id }
        return (status?["pid"], apps?["pid"])
    }

    @Test func anInstalledAppKilledFromOutsideShowsNoPid() throws {
        let broker = try BrokerFixture()
        let id = "com.example.KilledOutside"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let running = try Self.pids(broker, id)
        let pid = try #require(running.apps?.int64Value)
        #expect(running.status?.int64Value == pid, "a running app shows its pid")

        #expect(kill(Int32(pid), SIGKILL) == 0)
        #expect(try AppsSupervisedTests.eventually {
            try AppsSupervisedTests.processRecords(broker, id).contains { $0["event"]?.stringValue == "exited" }
        })
        #expect(try broker.reached(id, "notRunning"))
        let ended = try Self.pids(broker, id)
        #expect(ended.status == .null, "status: \(String(describing: ended.status))")
        #expect(ended.apps == .null, "apps --json: \(String(describing: ended.apps))")
        try SupervisionCheck.run(broker)
    }

    @Test func aSubscribeAppKilledShowsNoPid() throws {
        let broker = try BrokerFixture()
        let id = "com.example.SubscribeKilled"
        let app = try broker.subscribe(id)
        #expect(try broker.reached(id, "active"))
        #expect(try Self.pids(broker, id).status?.int64Value ?? 0 > 0, "a connected app shows its pid")

        app.signal(SIGKILL)
        _ = app.wait()
        #expect(try broker.reached(id, "notRunning"))
        #expect(try AppsSupervisedTests.eventually { try Self.pids(broker, id).status == .null },
                "status shows no pid once the app's process is gone")
        try SupervisionCheck.run(broker)
    }
}

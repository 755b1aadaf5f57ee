import Glibc
import LifebusProtocol
import Testing

/// An installed app's launch is bounded by its launch budget: a spawned process that never connects overruns it as
/// a late callback overruns its own, and is killed (`watchdog`), reaped and journaled.
@Suite struct AppsLaunchBudgetTests {
    @Test func aSpawnedAppThatNeverConnectsIsKilledAtItsLaunchBudget() throws {
        // 20 s × 0.01: the budget passes in 200 ms.
        let broker = try BrokerFixture(arguments: ["--time-scale", "0.01"])
        let id = "com.example.Mute"
        let manifest = AppsSupervisedTests.manifest(
            id, in: broker.ownFolder, executable: "/bin/sleep", arguments: ["1000"])
        #expect(try broker.cli(["install", manifest]).status == 0)

        let launch = try broker.cli(["fire", "launch", id])
        #expect(launch.status == 1, "timed out: \(launch.out) \(launch.err)")
        #expect(launch.err.contains("did not connect within its launch budget"), "\(launch.err)")

        func events() throws -> [String] {
            try AppsSupervisedTests.processRecords(broker, id).map { $0["event"]?.stringValue ?? "" }
        }
        #expect(try AppsSupervisedTests.eventually { try events().contains("exited") })
        let records = try AppsSupervisedTests.processRecords(broker, id)
        #expect(try events() == ["started", "killed", "exited"])
        #expect(records[1]["reason"]?.stringValue == "watchdog")
        #expect(records[2]["signal"]?.int64Value == Int64(SIGKILL))
        let pid = Int32(records[0]["pid"]?.int64Value ?? 0)
        #expect(pid > 0 && kill(pid, 0) == -1 && errno == ESRCH, "killed and reaped: no process, no zombie")
        try SupervisionCheck.run(broker)
    }
}

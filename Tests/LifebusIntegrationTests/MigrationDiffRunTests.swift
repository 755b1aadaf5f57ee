import LifebusIO
import LifebusJSON
import Testing

/// `lifebus run --diff` end to end: the real CLI runs a scenario under profiles in the order given, on private
/// manual-clock brokers with the example app installed, and reports what stopped happening from each to the next —
/// as text, as JSON and as JUnit a CI system reads (checked against Jenkins' schema) — exiting 1 on any loss.
@Suite struct MigrationDiffRunTests {
    static let root = TranscriptReplayTests.repositoryRoot
    static let homeRelaunch = "\(root)/scenarios/home-relaunch.yaml"

    @Test func aLossIsReportedAsTextAndJUnitAndFailsTheRun() throws {
        let junit = try ScenarioRunTests.reportPath()
        defer { ScenarioRunTests.remove(junit) }
        let run = try ScenarioRunTests.lifebus(
            ["run", Self.homeRelaunch, "--profile", "ios3,ios4,ios7", "--diff", "--junit", junit])
        #expect(run.status == 1, "\(run.out)\n\(run.err)")
        // iOS 3 relaunches the app where iOS 4 resumes it: the restore done at each launch happens once fewer.
        #expect(run.out.contains("""
            LOST  Home, then back to the app (\(Self.homeRelaunch)), ios3 → ios4:
              com.example.DeepThoughts: mark state-restored made 2 times under ios3, once under ios4
            """))
        #expect(run.out.contains("no loss in Home, then back to the app (\(Self.homeRelaunch)), ios4 → ios7"))
        #expect(run.out.contains("1 scenario file, 3 runs (scenario × profile): 3 passed, 0 failed"))
        let check = try HelperScripts.python("check_junit.py", [junit, ScenarioRunTests.junitSchema])
        #expect(check.status == 0, "\(check.out)\n\(check.err)")
        #expect(check.out.contains("| Home, then back to the app [ios3 → ios4] com.example.DeepThoughts mark "
            + "state-restored | \(Self.homeRelaunch) --diff | failed | com.example.DeepThoughts: mark state-restored "
            + "made 2 times under ios3, once under ios4"))
        #expect(check.out.contains("| Home, then back to the app [ios4 → ios7] no loss | \(Self.homeRelaunch) --diff "
            + "| passed |"))
    }

    @Test func profilesThatAgreePassAndTheJSONSaysSo() throws {
        let run = try ScenarioRunTests.lifebus(["run", Self.homeRelaunch, "--profile", "ios7,ios4", "--diff", "--json"])
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        let report = try JSONParser.parse(run.out)
        #expect(report["passed"] == .bool(true))
        #expect(report["losses"] == .array([]))
        #expect(report["runs"]?.arrayValue?.compactMap { $0["profile"]?.stringValue } == ["ios7", "ios4"])
    }

    @Test func theJSONNamesEachLoss() throws {
        let run = try ScenarioRunTests.lifebus(["run", Self.homeRelaunch, "--profile", "ios3,ios4", "--diff", "--json"])
        #expect(run.status == 1, "\(run.out)\n\(run.err)")
        let report = try JSONParser.parse(run.out)
        #expect(report["passed"] == .bool(false))
        let losses = report["losses"]?.arrayValue ?? []
        let restored = losses.first { $0["mark"] == .string("state-restored") }
        #expect(restored?["kind"] == .string("markLost"))
        #expect(restored?["earlier"] == .string("ios3"))
        #expect(restored?["later"] == .string("ios4"))
        #expect(restored?["earlierCount"] == .integer(2))
        #expect(restored?["laterCount"] == .integer(1))
        #expect(restored?["app"] == .string("com.example.DeepThoughts"))
    }
}

import Glibc
import LifebusJSON
import Testing

/// Memory sampling under `lifebusd --clock manual`: the `--memory-sample` period is virtual, so a sample is taken
/// only when an advance passes its instant, and what the round decides (here a memory-limit kill) happens at that
/// virtual instant, however much real time went by.
@Suite struct AppsMemoryClockTests {
    @Test func aSampleIsTakenWhenAnAdvancePassesItsVirtualInstantAndTheLimitKillHappensThere() throws {
        let broker = try BrokerFixture(arguments: [
            "--clock", "manual", "--device-memory", "1GiB", "--memory-sample", "250ms",
        ])
        let id = "com.example.Heavy"
        // Any process is over 1 MiB: the first sample that sees it kills it.
        let manifest = AppsSupervisedTests.manifest(id, in: broker.ownFolder, memoryLimit: "1MiB")
        #expect(try broker.cli(["install", manifest]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        func resident() throws -> JSONValue? {
            jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?[0]?["residentBytes"]
        }
        #expect(try resident() == .null, "no sample yet: virtual time has not moved")

        // 100 ms of virtual time: no sample instant passed (the first is at 250 ms).
        let early = try broker.cli(["clock", "advance", "100ms", "--json"])
        #expect(parsed(early.out)?["nowMs"]?.doubleValue == 100, "\(early.out) \(early.err)")
        #expect(try broker.reached(id, "active", timeout: "1s"))
        #expect(try AppsSupervisedTests.processRecords(broker, id).allSatisfy { $0["event"]?.stringValue != "killed" })

        // On to 300 ms: the sample at 250 ms sees it over its limit and the kill happens at that instant.
        let late = try broker.cli(["clock", "advance", "200ms", "--json"])
        #expect(parsed(late.out)?["nowMs"]?.doubleValue == 300, "\(late.out) \(late.err)")
        #expect(try broker.reached(id, "notRunning", timeout: "1s"), "killed within the advance")
        let killed = try AppsSupervisedTests.processRecords(broker, id).first { $0["event"]?.stringValue == "killed" }
        #expect(killed?["reason"]?.stringValue == "jetsam")
        #expect(killed?["atMs"]?.doubleValue == 250, "at the sample's virtual instant: \(killed?.jsonText ?? "")")
        let figures = killed?["detail"]?.stringValue ?? ""
        #expect(figures.contains("limit 1048576 bytes"), "\(figures)")
        let last = try broker.transitions(of: id).last
        #expect(last?["outcome"]?.stringValue == "jetsam")
        #expect(last?["sentMs"]?.doubleValue == 250)
        try SupervisionCheck.run(broker)
    }

    @Test func anAdvanceOfAnHourTakesAHandfulOfSamplesNotOnePerPeriod() throws {
        let broker = try BrokerFixture(arguments: [
            "--clock", "manual", "--device-memory", "1GiB", "--memory-sample", "10ms",
        ])
        let id = "com.example.Idle"
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        // 360 000 sample instants: answered at once because the readings with nothing happening between are
        // skipped (taking each would take hours).
        let advance = try broker.cli(["clock", "advance", "1h", "--json"])
        #expect(parsed(advance.out)?["nowMs"]?.doubleValue == 3_600_000, "\(advance.out) \(advance.err)")
        let resident = jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?[0]?["residentBytes"]
        #expect((resident?.int64Value ?? 0) > 0, "sampled: \(resident?.jsonText ?? "nothing")")
        try SupervisionCheck.run(broker)
    }
}

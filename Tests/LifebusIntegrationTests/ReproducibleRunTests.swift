import Glibc
import LifebusProtocol
import Testing

/// Reproducible journals: one multi-app scenario (real `lifebusd --clock manual`, real app processes) run twice
/// gives byte-identical reproducible histories, from the broker and from the journal file, though pids, handler
/// times, wall clocks and the order the apps' answers arrived in differ.
@Suite struct ReproducibleRunTests {
    /// Runs the scenario on a fresh broker; returns `history --json --reproducible` from the broker and from its
    /// journal file, and the raw history (to show what differed).
    private static func runScenario() throws -> (broker: String, file: String, raw: String) {
        let broker = try BrokerFixture(arguments: ["--clock", "manual", "--advance-settle", "2s"])
        // One at a time, so the launch order (which is the order of events) is the scenario's, not the kernel's.
        let player = try broker.subscribe("com.example.Player", ["--background-mode", "audio"])
        #expect(try broker.reached("com.example.Player", "active"))
        let notes = try broker.subscribe("com.example.Notes")
        #expect(try broker.reached("com.example.Notes", "active"))
        #expect(try broker.reached("com.example.Player", "background"))
        let steps: [[String]] = [
            ["fire", "memory-warning"],  // both apps at once: their answers race
            ["clock", "advance", "3s"],
            ["fire", "call"],
            ["clock", "advance", "1s"],
            ["fire", "call", "--answer"],
            ["fire", "call", "--end"],
            ["fire", "home"],
            ["clock", "advance", "4m"],
            ["fire", "memory-warning", "--level", "critical"],
            ["clock", "advance", "15s"],
        ]
        for step in steps {
            let result = try broker.cli(step)
            #expect(result.status == 0, "\(step): \(result.err)")
        }
        #expect(try broker.cli(["clock"]).out == "259000.000 ms (manual clock)\n")
        let fromBroker = try broker.cli(["history", "--json", "--reproducible"])
        let fromFile = try runCLI(["history", "--journal", broker.journalPath, "--json", "--reproducible"])
        let raw = try broker.cli(["history", "--json"])
        #expect(player.isAlive, "the player plays on")
        #expect(notes.waitForExit() == 128 + SIGKILL, "the critical warning jetsammed the suspended app")
        return (fromBroker.out, fromFile.out, raw.out)
    }

    @Test func theSameScenarioTwiceGivesByteIdenticalReproducibleJournals() throws {
        let first = try Self.runScenario()
        let second = try Self.runScenario()
        #expect(first.raw != second.raw, "pids and wall clocks differ between the runs")
        #expect(first.broker == second.broker)
        #expect(first.file == second.file)
        let records = jsonLines(first.file)
        #expect(records.count > 12, "\(first.file)")
        let warned = records.filter { $0["callback"]?.stringValue == "didReceiveMemoryWarning" }
        #expect(Set(warned.compactMap { $0["app"]?.stringValue }) == ["com.example.Player", "com.example.Notes"])
        #expect(records.allSatisfy { $0["pid"] == nil && $0["wallMs"] == nil && $0["seq"] == nil })
        #expect(records.contains { $0["sentMs"]?.doubleValue == 4_000 }, "times are virtual, hence exact")
    }
}

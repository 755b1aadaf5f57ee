import Glibc
import LifebusJSON
import Testing

/// The journal is written before anyone is told: after the broker is killed, the file holds exactly what `history`
/// reported.
@Suite struct AppsJournalTests {
    @Test func theJournalReadWithoutABrokerMatchesHistoryAfterTheBrokerIsKilled() throws {
        let broker = try BrokerFixture()
        // The `--on` hook journals a mark through `lifebus mark`: the journal gets marks too.
        let mark = "\(ChildProcess.productsFolder)/lifebus mark resigned --data '{\"n\":1}'"
        let app = try broker.subscribe("com.example.Journaled", ["--on", "willResignActive=\(mark)"])
        #expect(try broker.reached("com.example.Journaled", "active"))
        for event in [["call"], ["call", "--decline"], ["home"], ["activate", "com.example.Journaled"]] {
            let fired = try broker.cli(["fire"] + event)
            #expect(fired.status == 0, "fire \(event): \(fired.err)")
        }
        #expect(try broker.reached("com.example.Journaled", "active"))
        let reported = try broker.history()
        #expect(reported.contains { $0["type"]?.stringValue == "mark" }, "the --on hook left marks")
        #expect(reported.filter { $0["type"]?.stringValue == "transition" }.count >= 8)

        broker.process.signal(SIGKILL)
        #expect(broker.process.wait() == 128 + SIGKILL)
        let read = try runCLI(["history", "--journal", broker.journalPath, "--json"])
        #expect(read.status == 0, "\(read.err)")
        let journaled = jsonLines(read.out)
        #expect(journaled.map(Self.key) == reported.map(Self.key))
        #expect(journaled == reported, "every field survives the round trip through the file")
        #expect(app.isAlive, "the app outlives its broker (it reconnects with backoff)")
    }

    /// What must match between the broker's answer and the file.
    private static func key(_ entry: JSONValue) -> String {
        let fields = ["type", "seq", "app", "callback", "outcome", "name"]
        return fields.map { entry[$0]?.jsonText ?? "-" }.joined(separator: " ")
    }
}

import LifebusProtocol
import Testing

/// `lifebus coverage` over the journal of a real broker run of a fixed sequence: the rows it names are the ones
/// checked by hand against `Protocol/lifecycle.md`.
@Suite struct CoverageCLITests {
    @Test func aKnownJournalCoversTheHandCheckedRows() throws {
        let broker = try BrokerFixture(arguments: ["--clock", "manual", "--profile", "ios7"])
        let app = try broker.subscribe("com.example.Covered")
        #expect(try broker.reached("com.example.Covered", "active"))             // R70
        for words in [
            ["call"], ["call", "--answer"], ["call", "--end"],                      // R01, R03, R06
            ["sms"], ["sms", "--dismiss"],                                          // R10, R14
            ["sleep"], ["wake"],                                                    // R20, R23
            ["memory-warning"],                                                     // R50
            ["home"], ["activate", "com.example.Covered"],                          // R26, R41
            ["terminate", "com.example.Covered"],                                   // R61
        ] {
            let fired = try broker.cli(["fire"] + words)
            #expect(fired.status == 0, "\(words): \(fired.err)")
        }
        #expect(app.waitForExit() == 0)

        let json = try broker.cli(["coverage", "--journal", broker.journalPath, "--app", "com.example.Covered",
                                   "--json"])
        #expect(json.status == 0, "\(json.err)")
        let run = parsed(json.out)?["apps"]?[0]?["profiles"]?[0]
        #expect(run?["profile"]?.stringValue == "ios7")
        let reached = run?["reached"]?.arrayValue?.compactMap { $0["row"]?.stringValue }
        #expect(reached == ["R01", "R03", "R06", "R10", "R14", "R20", "R23", "R26", "R41", "R50", "R61", "R70"])
        let never = run?["neverReached"]?.arrayValue?.compactMap { $0["row"]?.stringValue } ?? []
        #expect(never.contains("R05") && never.contains("R15") && !never.contains("R01"))

        let live = try broker.cli(["coverage", "--app", "com.example.Covered", "--json"])
        #expect(parsed(live.out)?["apps"]?[0]?["profiles"]?[0]?["reached"] == run?["reached"],
                "the broker's history says what its journal says")

        let text = try broker.cli(["coverage", "--journal", broker.journalPath])
        #expect(text.out.contains("com.example.Covered under ios7: 12 of "), "\(text.out)")
        #expect(text.out.contains("R15   SMS alert → `sms --reply`"), "\(text.out)")
    }
}

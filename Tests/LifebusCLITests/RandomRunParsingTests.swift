import ArgumentParser
import Testing

@testable import LifebusCLI

/// `lifebus run --random`'s options: what it needs, and what does not go with it.
@Suite struct RandomRunParsingTests {
    @Test func theFuzzerNeedsASeedAndAnAppAndTakesNoFiles() throws {
        let run = try #require(try LifebusCommand.parseAsRoot([
            "run", "--random", "42", "--steps", "9", "--app", "a.json", "--app", "b.json", "--fact", "saves=s",
            "-o", "r.yaml",
        ]) as? LifebusCommand.Run)
        #expect(run.random.seed == 42 && run.random.steps == 9 && run.random.apps == ["a.json", "b.json"])
        #expect(run.random.facts == ["saves=s"] && run.random.reproducer == "r.yaml" && run.files.isEmpty)
        for bad in [
            ["run", "--random", "1"], ["run", "--random", "1", "--app", "a.json", "x.yaml"],
            ["run", "--random", "1", "--app", "a.json", "--socket", "/s"], ["run", "--random", "1", "--steps", "0"],
            ["run", "x.yaml", "--fact", "saves=s"], ["run", "--random", "-1", "--app", "a.json"],
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try LifebusCommand.parseAsRoot(bad) }
        }
    }
}

import Testing

/// The README's two background stories run as printed (`FeedReader` and the built tools on `PATH`), print what the
/// text says they print, and leave nothing running.
@Suite struct ReadmeBackgroundStoriesTests {
    /// The first `sh` block under `heading` in the README.
    static func block(under heading: String) throws -> String {
        let path = "\(TranscriptReplayTests.repositoryRoot)/README.md"
        let readme = String(decoding: try readBytes(path), as: UTF8.self)
        let section = try #require(readme.firstRange(of: "## \(heading)\n"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.firstRange(of: "```sh\n"))
        let close = try #require(rest[open.upperBound...].firstRange(of: "```"))
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test func theRefreshTaskThatForgetsToCompleteIsKilledAtThirtyVirtualSeconds() throws {
        let run = try CopiedScript(
            named: "readme-refresh.sh", contents: try Self.block(under: "A refresh task that forgets to complete")
        ).run()
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        let lines = run.out.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        let task = "com.example.FeedReader task appRefresh com.example.FeedReader.refresh"
        #expect(lines.contains("900000.000 \(task) launched") && lines.contains("930000.000 \(task) expired"))
        #expect(lines.contains { $0.hasPrefix("930000.000 com.example.FeedReader process killed pid ")
            && $0.hasSuffix("(backgroundTaskExpired)") }, "\(run.out)")
        #expect(run.leftOver.isEmpty, "processes left running: \(run.leftOver)")
    }

    @Test func theDraftWrittenAfterTheLockIsLostWithEPERM() throws {
        let run = try CopiedScript(
            named: "readme-draft.sh", contents: try Self.block(under: "A draft lost to a locked device")
        ).run()
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.hasPrefix("unavailable\n"), "\(run.out)")
        #expect(run.out.contains("mark draft-lost") && run.out.contains(#""errno":"EPERM""#), "\(run.out)")
        #expect(!run.out.contains("draft-saved"))
        #expect(run.leftOver.isEmpty, "processes left running: \(run.leftOver)")
    }
}

import Testing

@testable import LifebusCLI

/// `trace` and `mcp` parse their arguments without a broker, and refuse bad ones with exit 2.
@Suite struct TraceParsingTests {
    @Test func traceDefaultsToAnSVGOnStandardOutput() throws {
        let trace = try #require(try LifebusCommand.parseAsRoot(["trace"]) as? LifebusCommand.Trace)
        #expect(trace.format == .svg)
        #expect(trace.output == nil && trace.journal == nil && trace.apps.isEmpty)
    }

    @Test func traceTakesAppsAFormatAndAFile() throws {
        let trace = try #require(
            try LifebusCommand.parseAsRoot([
                "trace", "--journal", "j.jsonl", "--app", "com.example.A", "--app", "com.example.B",
                "--format", "chrome", "-o", "run.json",
            ]) as? LifebusCommand.Trace
        )
        #expect(trace.apps == ["com.example.A", "com.example.B"])
        #expect(trace.format == .chrome)
        #expect(trace.output == "run.json")
        #expect(trace.journal == "j.jsonl")
    }

    @Test func mcpTakesStartBroker() throws {
        let mcp = try #require(try LifebusCommand.parseAsRoot(["mcp", "--start-broker"]) as? LifebusCommand.MCP)
        #expect(mcp.startBroker)
    }

    @Test(arguments: [
        ["trace", "--format", "png"],
        ["trace", "--app", "not an id"],
        ["mcp", "--start-broker", "--socket", "/tmp/x.sock"],
        ["mcp", "extra"],
    ])
    func badArgumentsExitWithUsage(arguments: [String]) {
        #expect(CLIUsage.exitStatus(of: arguments) == CLIExitStatus.usage.rawValue)
    }
}

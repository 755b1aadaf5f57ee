import Glibc
import Testing

/// `lifebus mcp` driven by clients: PyPI's `mcp` package (a client nobody here wrote) against a broker the server
/// starts itself, and raw JSON-RPC lines for the protocol's edges (lifecycle order, parse errors, batches,
/// cancellation, the end of input). The scripts are in `Fixtures/`; each prints its checks.
@Suite struct MCPServerTests {
    @Test func theMCPClientFiresACallAndWaitsForTheAppToLeave() throws {
        let run = try HelperScripts.python("mcp_client.py", [ChildProcess.productsFolder])
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }

    @Test func anAgentRunsAWholeRestorationTestThroughToolsAlone() throws {
        let run = try HelperScripts.python(
            "mcp_restoration.py", [ChildProcess.productsFolder, TranscriptReplayTests.repositoryRoot],
            timeout: .seconds(180))
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }

    @Test func aToolRefusesAnArgumentItDoesNotTakeInsteadOfPassingFalsely() throws {
        let run = try HelperScripts.python(
            "mcp_arguments.py", [ChildProcess.productsFolder, TranscriptReplayTests.repositoryRoot],
            timeout: .seconds(120))
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }

    @Test func anAgentRunsTheBackgroundStoriesThroughToolsAlone() throws {
        let run = try HelperScripts.python("mcp_background.py", [ChildProcess.productsFolder], timeout: .seconds(180))
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }

    @Test func startBrokerPassesTheDeviceConditionsOn() throws {
        let run = try HelperScripts.python("mcp_conditions.py", [ChildProcess.productsFolder], timeout: .seconds(120))
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }

    @Test func rawJSONRPCEdgesAreAnsweredAsTheSpecSays() throws {
        let broker = try BrokerFixture()
        let run = try HelperScripts.python("mcp_raw.py", ["\(ChildProcess.productsFolder)/lifebus", broker.socketPath])
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }

    @Test func advanceClockMovesAManualClock() throws {
        let broker = try BrokerFixture(arguments: ["--clock", "manual"])
        let lifebus = "\(ChildProcess.productsFolder)/lifebus"
        let run = try HelperScripts.python("mcp_clock.py", [lifebus, broker.socketPath])
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }

    @Test func theSceneToolsActOnAndWaitForScenes() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17"])
        let app = try broker.subscribe("com.example.Notes", ["--scenes", "--multiple-scenes"])
        defer { app.signal(SIGTERM) }
        let lifebus = "\(ChildProcess.productsFolder)/lifebus"
        let manifest = "\(TranscriptReplayTests.repositoryRoot)/Examples/manifests/notesscenes.json"
        let run = try HelperScripts.python("mcp_scenes.py", [lifebus, broker.socketPath, manifest])
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("all checks passed"), "\(run.out)\n\(run.err)")
    }
}

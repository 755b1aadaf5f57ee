@testable import LifebusCLI
import Testing

/// `lifebus mcp --start-broker` passes its broker options to the private `lifebusd` it starts, and refuses them
/// without `--start-broker`.
@Suite struct MCPBrokerArgumentsTests {
    @Test func theBrokerOptionsReachLifebusd() throws {
        let parsed = try LifebusCommand.parseAsRoot([
            "mcp", "--start-broker", "--clock", "manual", "--profile", "ios17", "--scene-order-seed", "42",
        ])
        let mcp = try #require(parsed as? LifebusCommand.MCP)
        #expect(mcp.brokerArguments == [
            "--log-level", "error", "--clock", "manual", "--profile", "ios17", "--scene-order-seed", "42",
        ])
    }

    @Test(arguments: [
        ["mcp", "--scene-order-seed", "42"],
        ["mcp", "--start-broker", "--scene-order-seed", "-1"],
    ])
    func aSeedWithoutStartBrokerOrBelowZeroIsAUsageError(arguments: [String]) {
        #expect(CLIUsage.exitStatus(of: arguments) == CLIExitStatus.usage.rawValue)
    }
}

@testable import LifebusCLI
import Testing

/// `lifebus mcp --start-broker` passes its broker options (`--power`, `--network` among them) to the private `lifebusd`
/// it starts, and refuses them without `--start-broker` or out of their range.
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

    @Test func theDeviceConditionsReachLifebusd() throws {
        let parsed = try LifebusCommand.parseAsRoot([
            "mcp", "--start-broker", "--power", "battery", "--network", "offline",
        ])
        let mcp = try #require(parsed as? LifebusCommand.MCP)
        #expect(mcp.brokerArguments == ["--log-level", "error", "--power", "battery", "--network", "offline"])
    }

    @Test(arguments: [
        ["mcp", "--scene-order-seed", "42"],
        ["mcp", "--start-broker", "--scene-order-seed", "-1"],
        ["mcp", "--power", "battery"],
        ["mcp", "--network", "offline"],
        ["mcp", "--start-broker", "--power", "solar"],
        ["mcp", "--start-broker", "--network", "flaky"],
    ])
    func aBrokerOptionWithoutStartBrokerOrOutOfRangeIsAUsageError(arguments: [String]) {
        #expect(CLIUsage.exitStatus(of: arguments) == CLIExitStatus.usage.rawValue)
    }
}

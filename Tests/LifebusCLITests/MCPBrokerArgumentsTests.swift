@testable import LifebusCLI
import LifebusLifecycle
import Testing

/// `lifebus mcp --start-broker` passes its broker options (`--power`, `--network`, the device knobs among them) to the
/// private `lifebusd` it starts, whose apps get a fresh state folder, and refuses them without `--start-broker` or out
/// of their range.
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

    @Test func theBrokersAppsGetAFreshStateFolder() throws {
        let mcp = try #require(try LifebusCommand.parseAsRoot(["mcp", "--start-broker"]) as? LifebusCommand.MCP)
        #expect(mcp.brokerLaunch.freshAppState)
        #expect(mcp.brokerLaunch.arguments == mcp.brokerArguments)
    }

    @Test func theDeviceConditionsReachLifebusd() throws {
        let parsed = try LifebusCommand.parseAsRoot([
            "mcp", "--start-broker", "--power", "battery", "--network", "offline",
        ])
        let mcp = try #require(parsed as? LifebusCommand.MCP)
        #expect(mcp.brokerArguments == ["--log-level", "error", "--power", "battery", "--network", "offline"])
    }

    @Test func theDeviceKnobsReachLifebusd() throws {
        let parsed = try LifebusCommand.parseAsRoot([
            "mcp", "--start-broker", "--background-launch-scene", "connects", "--tasks-after-force-quit",
            "processing,appRefresh", "--protected-data-notifications", "missed",
        ])
        let mcp = try #require(parsed as? LifebusCommand.MCP)
        #expect(mcp.brokerArguments == [
            "--log-level", "error", "--protected-data-notifications", "missed", "--tasks-after-force-quit",
            "appRefresh,processing", "--background-launch-scene", "connects",
        ])
    }

    /// The options list only words `lifebusd` reads (`DeviceKnobs.set(_:to:)` gives them their meaning).
    @Test func everyKnobOptionWordIsOneLifebusdTakes() {
        var knobs = DeviceKnobs()
        for word in BrokerKnobOptions.ProtectedDataNotifications.allCases.map(\.rawValue) {
            let taken = knobs.set("protected-data-notifications", to: word)
            #expect(taken, "\(word)")
        }
        for word in BrokerKnobOptions.BackgroundLaunchScene.allCases.map(\.rawValue) {
            let taken = knobs.set("background-launch-scene", to: word)
            #expect(taken, "\(word)")
        }
    }

    @Test(arguments: [
        ["mcp", "--protected-data-notifications", "missed"],
        ["mcp", "--start-broker", "--tasks-after-force-quit", "refresh"],
        ["mcp", "--start-broker", "--background-launch-scene", "sometimes"],
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

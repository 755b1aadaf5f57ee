import ArgumentParser
import LifebusBrokerLauncher
import LifebusIO
import LifebusLifecycle
import LifebusMCP
import LifebusProtocol

extension LifebusCommand {
    /// `lifebus mcp`: a Model Context Protocol server on stdio, so coding agents can drive the bus.
    struct MCP: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve the Model Context Protocol on stdin/stdout for coding agents.",
            discussion: """
                Tools: fire, launch, status, wait_for_state, history, advance_clock, timeline, install, \
                uninstall, reset, expect, coverage, run_scenario. Connects to the running broker (--socket, as the \
                other commands), or with --start-broker starts a private lifebusd (beside this executable or on \
                PATH; --clock, --profile, --apps, --scene-order-seed, --power, --network and the device knobs \
                passed to it) on a temporary socket, its apps with a fresh empty state folder (LIFEBUS_STATE_DIR), \
                and stops it on exit; the status tool reports the socket for apps. Ends when standard input ends. \
                Agent configuration: {"mcpServers":{"lifebus":{"command":"lifebus","args":["mcp","--start-broker"]}}}
                """
        )

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Start a private lifebusd on a temporary socket for this session.") var startBroker = false
        @Option(help: ArgumentHelp(
            "With --start-broker: the broker's clock, real or manual (advance_clock drives a manual one).",
            valueName: "kind"))
        var clock: ClockKind?
        @Option(help: ArgumentHelp("With --start-broker: the device model (lifebusd --profile).", valueName: "profile"))
        var profile: Profile?
        @Option(help: ArgumentHelp(
            "With --start-broker: install the app manifest of every *.json file in this folder at start.",
            valueName: "dir"))
        var apps: String?
        @Option(help: ArgumentHelp(
            "With --start-broker: the seed of the scene orders Apple does not document (lifebusd --scene-order-seed).",
            valueName: "n"))
        var sceneOrderSeed: UInt64?
        @Option(help: ArgumentHelp(
            "With --start-broker: the device's power at start, external or battery (lifebusd --power).",
            valueName: "source"))
        var power: PowerSource?
        @Option(help: ArgumentHelp(
            "With --start-broker: the device's network at start, online or offline (lifebusd --network).",
            valueName: "state"))
        var network: NetworkState?
        @OptionGroup(title: "With --start-broker, its device knobs") var knobs: BrokerKnobOptions

        func validate() throws {
            if startBroker && global.socket != nil {
                throw ValidationError("--start-broker picks its own socket; do not pass --socket with it")
            }
            if !startBroker
                && (clock != nil || profile != nil || apps != nil || sceneOrderSeed != nil || power != nil
                    || network != nil || !knobs.isEmpty)
            {
                throw ValidationError("--clock, --profile, --apps, --scene-order-seed, --power, --network and the "
                    + "device knobs configure the broker --start-broker starts")
            }
        }

        /// The private broker's arguments: quiet, and the options given.
        var brokerArguments: [String] {
            var arguments = ["--log-level", "error"]
            if let clock { arguments += ["--clock", clock.rawValue] }
            if let profile { arguments += ["--profile", profile.rawValue] }
            if let apps { arguments += ["--apps", apps] }
            if let sceneOrderSeed { arguments += ["--scene-order-seed", String(sceneOrderSeed)] }
            if let power { arguments += ["--power", power.rawValue] }
            if let network { arguments += ["--network", network.rawValue] }
            return arguments + knobs.knobs.arguments
        }

        /// The private broker `--start-broker` starts: its apps with a fresh, empty state folder, as after a fresh
        /// install.
        var brokerLaunch: BrokerLaunch {
            BrokerLaunch(arguments: brokerArguments, purpose: "lifebus-mcp", freshAppState: true)
        }

        func run() throws {
            var broker: BrokerProcess?
            if startBroker {
                do {
                    broker = try BrokerProcess(brokerLaunch)
                } catch {
                    StandardError.writeLine("lifebus: \(error)")
                    throw CLIExitStatus.unreachable
                }
            }
            defer { broker?.stop() }
            try MCPServer.serve(socketPath: broker?.socketPath ?? global.socketPath)
        }
    }
}

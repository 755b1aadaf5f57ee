import ArgumentParser
import LifebusBrokerLauncher
import LifebusIO
import LifebusMCP

extension LifebusCommand {
    /// `lifebus mcp`: a Model Context Protocol server on stdio, so coding agents can drive the bus.
    struct MCP: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve the Model Context Protocol on stdin/stdout for coding agents.",
            discussion: """
                Tools: fire, launch, status, wait_for_state, history, advance_clock, timeline. Connects to the \
                running broker (--socket, as the other commands), or with --start-broker starts a private \
                lifebusd (beside this executable or on PATH) on a temporary socket and stops it on exit; the \
                status tool reports the socket for apps. Ends when standard input ends. Agent configuration: \
                {"mcpServers":{"lifebus":{"command":"lifebus","args":["mcp","--start-broker"]}}}
                """
        )

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Start a private lifebusd on a temporary socket for this session.") var startBroker = false

        func validate() throws {
            if startBroker && global.socket != nil {
                throw ValidationError("--start-broker picks its own socket; do not pass --socket with it")
            }
        }

        func run() throws {
            var broker: BrokerProcess?
            if startBroker {
                do {
                    let launch = BrokerLaunch(arguments: ["--log-level", "error"], purpose: "lifebus-mcp")
                    broker = try BrokerProcess(launch)
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

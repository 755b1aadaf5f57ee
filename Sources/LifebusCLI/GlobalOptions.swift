import ArgumentParser
import Glibc
import LifebusIO
import LifebusProtocol

/// Flags every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: """
        The broker's socket (default: $LIFEBUS_SOCKET, $XDG_RUNTIME_DIR/lifebus.sock, \
        /tmp/lifebus-$UID/lifebus.sock).
        """)
    var socket: String?

    @Flag(help: "Print JSON lines for machines instead of text for people.")
    var json = false

    /// The socket path, resolved as the broker resolves it.
    var socketPath: String { Self.socketPath(explicit: socket) }

    /// The socket path for an explicit `--socket` (or none), resolved as the broker resolves it.
    static func socketPath(explicit socket: String?) -> String {
        let environment = ProcessEnvironment.values(of: BrokerSocketPath.environmentVariables)
        return BrokerSocketPath.resolve(explicit: socket, environment: environment, uid: getuid())
    }
}

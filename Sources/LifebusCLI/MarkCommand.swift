import ArgumentParser
import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus mark NAME [--data JSON]`: journals a mark as the app that runs this command under `subscribe`.
    struct Mark: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark",
            abstract: "Journal a mark (e.g. state-saved) as the app, from a subscribe hook or program.",
            discussion: """
                Works inside `lifebus subscribe`: from an --on hook or the program run after --. The mark goes \
                through subscribe's private socket ($LIFEBUS_MARK_SOCKET) and reaches the broker on the app's own \
                connection, so it is journaled as that app's (the broker knows the app by its connection, not by \
                anything the mark says). Returns once the broker has journaled it. Exit 0 journaled, 2 not inside \
                subscribe or bad --data, 3 subscribe unreachable, 4 refused (e.g. the app is not connected).
                """
        )

        @Argument(help: "The mark's name, e.g. state-saved.") var name: String
        @Option(help: ArgumentHelp("A JSON object journaled with the mark, e.g. '{\"items\":3}'.", valueName: "json"))
        var data: JSONObjectArgument?

        func validate() throws {
            guard !name.isEmpty else { throw ValidationError("the mark's name must not be empty") }
        }

        func run() throws {
            guard let path = ProcessEnvironment.current["LIFEBUS_MARK_SOCKET"], !path.isEmpty else {
                StandardError.writeLine("""
                    lifebus mark: not inside `lifebus subscribe` (LIFEBUS_MARK_SOCKET is not set); run it from an \
                    --on hook or from the program after `--`
                    """)
                throw CLIExitStatus.usage
            }
            try MarkRelayCall.send(MarkParams(name: name, data: data?.object), path: path)
        }
    }
}

/// One request to a subscribe's mark relay, on a loop of its own. Stateless.
enum MarkRelayCall {
    static func send(_ params: MarkParams, path: String) throws {
        signal(SIGPIPE, SIG_IGN)
        let loop = try EventLoop()
        var outcome: Result<Void, RPCError>?
        var unreachable: UVError?
        Connection.connect(to: .unix(path), loop: loop) { result in
            switch result {
            case .failure(let error):
                unreachable = error
            case .success(let connection):
                let peer = RPCPeer(connection: connection)
                peer.start()
                peer.request(LifebusMethod.mark, params: params.json) { answer in
                    outcome = answer.map { _ in () }
                    peer.close()
                }
            }
        }
        loop.run()
        try loop.close()
        if let unreachable {
            StandardError.writeLine("lifebus mark: cannot reach subscribe at \(path): \(unreachable)")
            throw CLIExitStatus.unreachable
        }
        switch outcome {
        case .success?:
            return
        case .failure(let error)?:
            StandardError.writeLine("lifebus mark: the broker refused the mark: \(error.message)")
            throw CLIExitStatus.refused
        case nil:
            StandardError.writeLine("lifebus mark: subscribe closed the connection before answering")
            throw CLIExitStatus.unreachable
        }
    }
}

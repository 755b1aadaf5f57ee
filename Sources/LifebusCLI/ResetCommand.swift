import ArgumentParser
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus reset`: the broker's device back to fresh, without restarting it.
    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Back to a fresh device: no call, no alert, unlocked, apps without a process forgotten.",
            discussion: """
                The broker keeps running and connected apps stay connected; the app in front (if any) goes where a \
                fresh device puts it (active), with the callbacks that takes, journaled with cause "reset". Use it \
                between the tests of a script instead of restarting lifebusd. Prints the transitions, as fire does.
                """
        )

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let json = global.json
            let waited = "waiting for the transitions of reset to complete (each callback within its budget)"
            try BrokerCall.run(path: global.socketPath, json: global.json, onSlowAnswer: { peer, say in
                WaitNotice.transitions(peer: peer, say: say, otherwise: waited)
            }) { peer, _, finish in
                peer.request(LifebusMethod.reset, params: [:]) { answer in
                    do throws(RPCError) {
                        let result = try FireResult(json: try answer.get())
                        print(json ? result.json.jsonText : FireRunner.describe(result, style: .standardOutput))
                        finish(.success)
                    } catch {
                        finish(.refused(error))
                    }
                }
            }
        }
    }
}

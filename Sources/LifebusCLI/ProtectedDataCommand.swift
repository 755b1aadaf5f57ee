import ArgumentParser
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus protected-data`: whether the device's protected data is available now (`Protocol/README.md` §11.2a).
    struct ProtectedData: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "protected-data",
            abstract: "Print whether protected data is available: exit 0 when it is, 1 when it is not.",
            discussion: """
                Under the profiles with data protection (ios13 and later) protected data becomes unavailable the \
                profile's lock delay (10 s) after `fire sleep` and available again at `fire wake`: while it is \
                unavailable, apps' files of class complete fail with EPERM. Prints `available` or `unavailable` \
                ({"available":true} with --json) and exits 0 or 1, like test(1): \
                `lifebus protected-data && save-the-draft`. Exit 3 when no broker answers.
                """
        )

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let json = global.json
            try BrokerCall.run(path: global.socketPath, json: json) { peer, _, finish in
                peer.request(LifebusMethod.protectedData, params: [:]) { answer in
                    do throws(RPCError) {
                        let result = try ProtectedDataParams(json: try answer.get())
                        print(json ? result.json.jsonText : result.available ? "available" : "unavailable")
                        finish(result.available ? .success : .conditionNotMet)
                    } catch {
                        finish(.refused(error))
                    }
                }
            }
        }
    }
}

import ArgumentParser
import LifebusJSON
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus clock` prints the broker's lifecycle time; `lifebus clock advance DUR` moves a manual clock on.
    struct ClockCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clock",
            abstract: "Print the broker's clock, or move a manual clock on: lifebus clock advance 5s.",
            discussion: """
                Under lifebusd --clock manual the lifecycle runs on virtual time, from 0: `advance DUR` fires every \
                deadline that falls due (budgets, background-task expiry, suspension…) in order, and returns once \
                every callback they caused is answered or killed (or, for an app still within its budget, after \
                lifebusd's --advance-settle, listing the callbacks still running). Under the real clock, advance is \
                refused (exit 4).
                """
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("Nothing to print the clock, or: advance DURATION (e.g. 250ms, 5s, 1m).",
                                     valueName: "advance duration"))
        var words: [String] = []

        func validate() throws {
            guard words.isEmpty || (words.count == 2 && words[0] == "advance") else {
                throw ValidationError("write `lifebus clock` or `lifebus clock advance DURATION`")
            }
            if words.count == 2 { _ = try parseDuration(words[1]) }
        }

        func run() throws {
            let json = global.json
            var method = LifebusMethod.clock
            var params: JSONValue = [:]
            if words.count == 2 {
                let duration = try parseDuration(words[1])
                method = LifebusMethod.advance
                params = AdvanceParams(byMs: duration.inMilliseconds).json
            }
            let waited = "waiting for the callbacks the advance caused to be answered or killed (at most the "
                + "broker's --advance-settle, 5s by default)"
            try BrokerCall.run(path: global.socketPath, json: json, onSlowAnswer: { peer, say in
                WaitNotice.transitions(peer: peer, say: say, otherwise: waited)
            }) { peer, _, finish in
                peer.request(method, params: params) { answer in
                    do throws(RPCError) {
                        let result = try ClockResult(json: try answer.get())
                        print(json ? result.json.jsonText : Self.describe(result))
                        finish(.success)
                    } catch {
                        finish(.refused(error))
                    }
                }
            }
        }

        /// `5000 ms (manual clock)`, then one line per callback still outstanding.
        static func describe(_ result: ClockResult) -> String {
            var lines = ["\(formatMilliseconds(result.nowMs)) ms (\(result.clock.rawValue) clock)"]
            for callback in result.outstanding ?? [] {
                let name = callback.callback.rawValue
                lines.append("still running: \(callback.app) \(name) (callback \(callback.callbackID))")
            }
            return lines.joined(separator: "\n")
        }
    }
}

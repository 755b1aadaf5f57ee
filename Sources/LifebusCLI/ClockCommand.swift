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
                """,
            subcommands: [Advance.self]
        )

        @OptionGroup var global: GlobalOptions

        func run() throws {
            try Self.ask(LifebusMethod.clock, params: [:], path: global.socketPath, json: global.json)
        }

        /// `lifebus clock advance DUR`. `--socket` and `--json` may come before `advance` too (ArgumentParser gives
        /// them to both commands).
        struct Advance: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "advance", abstract: "Move a manual clock on and settle what falls due.")

            @OptionGroup var global: GlobalOptions
            @Argument(help: ArgumentHelp("How far (e.g. 250ms, 5s, 1m).", valueName: "duration"))
            var duration: DurationArgument

            func run() throws {
                let params = AdvanceParams(byMs: duration.duration.inMilliseconds).json
                try ClockCommand.ask(LifebusMethod.advance, params: params, path: global.socketPath, json: global.json)
            }
        }

        /// Sends `clock` or `advance` and prints the clock it answers.
        static func ask(_ method: String, params: JSONValue, path: String, json: Bool) throws {
            let waited = "waiting for the callbacks the advance caused to be answered or killed (at most the "
                + "broker's --advance-settle, 5s by default)"
            try BrokerCall.run(path: path, json: json, onSlowAnswer: { peer, say in
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

import ArgumentParser
import LifebusExpectation
import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus fire EVENT`: injects one interruption and prints the transitions it caused.
    struct Fire: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fire",
            abstract: "Fire an interruption and print the transitions it caused.",
            discussion: """
                Waits until every transition the event caused has completed (their callbacks answered or their \
                apps ended), unless --no-wait. Exit 0 when the broker carried the event out — also when it moved no \
                app (a call rings with no app running: "no app moved", noApp in --json); 1 with --expect or \
                --fail-on when a transition it caused ended otherwise; 2 without an event or with wrong options; \
                3 no broker; 4 when the broker refuses the event in the current state (e.g. call --end with no \
                call, activate of an app never connected, launch while locked); 1, lifebus.TimedOut, when a launch \
                it caused timed out: the app did not connect within its launch budget. A wait longer than 2 s says \
                on stderr what it waits for.
                """,
            subcommands: FireEvent.allCases.map { $0.command as any ParsableCommand.Type }
        )

        /// How a missing or unknown event is refused: the events named.
        static let eventMissing = "name the event to fire: "
            + FireEvent.allCases.map(\.rawValue).joined(separator: ", ")

        func run() throws {
            throw ValidationError(Self.eventMissing)
        }
    }
}

/// The flags every `fire` subcommand takes.
struct FireOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions

    @Flag(help: "Return as soon as the broker accepted the event, without waiting for its transitions.")
    var noWait = false

    @Option(help: ArgumentHelp(
        "Exit 1 unless every transition the event caused ended so (e.g. ok; failed: a hook exited non-zero).",
        valueName: "outcome"))
    var expect: Verdict?

    @Option(name: .customLong("fail-on"), help: ArgumentHelp(
        "Exit 1 when a transition the event caused ended so (e.g. watchdog,late,crashed,failed).",
        valueName: "outcome,…"))
    var failOn: ChoiceList<Verdict>?

    func validate() throws {
        try requireAtMostOne([("--expect", expect != nil), ("--fail-on", failOn != nil)])
        if noWait && (expect != nil || failOn != nil) {
            throw ValidationError("--no-wait cannot check outcomes; drop --expect/--fail-on or --no-wait")
        }
    }

    /// The transitions that ended badly by `--expect` / `--fail-on` (none when neither is given).
    func badTransitions(_ records: [TransitionRecord]) -> [TransitionRecord] {
        if let expect {
            return records.filter { !expect.holds(for: $0) }
        }
        if let failOn {
            return records.filter { !Set(Verdict.of($0)).isDisjoint(with: failOn.choices) }
        }
        return []
    }
}

/// Throws a usage error when more than one of the named flags is set.
func requireAtMostOne(_ flags: [(name: String, isSet: Bool)]) throws {
    let set = flags.filter(\.isSet).map(\.name)
    guard set.count <= 1 else {
        throw ValidationError("\(set.joined(separator: " and ")) cannot be used together; choose one")
    }
}

/// Throws a usage error unless `id` is a well-formed app id.
func requireAppID(_ id: String, option: String) throws {
    guard HelloParams.isValidAppID(id) else {
        throw ValidationError("\(option) '\(id)' is not an app id (1…255 characters from A-Z a-z 0-9 . _ -)")
    }
}

/// Sends one `fire` request and prints its `FireResult`: the conversation shared by every `fire` subcommand.
enum FireRunner {
    static func fire(_ params: FireParams, options: FireOptions) throws {
        try fire(params, path: options.global.socketPath, json: options.global.json, check: options.badTransitions)
    }

    /// Fires `params` at the broker at `path` and prints the result; `check` picks the transitions that ended badly.
    static func fire(
        _ params: FireParams, path: String, json: Bool, check: @escaping ([TransitionRecord]) -> [TransitionRecord]
    ) throws {
        let onSlowAnswer: BrokerCall.SlowAnswer = { peer, say in WaitNotice.fire(params.label, peer: peer, say: say) }
        try BrokerCall.run(path: path, json: json, onSlowAnswer: params.wait ? onSlowAnswer : nil) { peer, _, finish in
            peer.request(LifebusMethod.fire, params: params.json) { answer in
                switch answer {
                case .failure(let error):
                    finish(.refused(error))
                case .success(let value):
                    do throws(RPCError) {
                        let result = try FireResult(json: value)
                        print(json ? result.json.jsonText : describe(result, style: .standardOutput))
                        let bad = check(result.transitions)
                        for record in bad {
                            CLIErrorReport(json: json).write(
                                name: "lifebus.OutcomeNotExpected",
                                "\(record.app) \(record.callback?.rawValue ?? "-") \(record.from.rawValue) → "
                                    + "\(record.to.rawValue) ended \(Verdict.text(record))",
                                extra: ["seq": .integer(record.seq), "outcome": .string(Verdict.text(record))])
                        }
                        finish(bad.isEmpty ? .success : .conditionNotMet)
                    } catch {
                        finish(.refused(error))
                    }
                }
            }
        }
    }

    /// The text report of a fire: a summary line, then the transitions as a table.
    static func describe(_ result: FireResult, style: TerminalStyle) -> String {
        let count = result.transitions.count
        guard result.completed else {
            return "event \(result.eventID) (\(result.event)) accepted; not waiting for its transitions"
        }
        let summary = style.paint("event \(result.eventID): \(result.event)", .bold)
            + " — \(count) transition\(count == 1 ? "" : "s")"
        guard count > 0 else { return summary + " (no app moved)" }
        return ([summary] + TransitionFormatting.table(result.transitions).render(style: style))
            .joined(separator: "\n")
    }
}

import Glibc
import LifebusLifecycle
import LifebusProtocol

/// The start-up fast path of the one-shot commands scripts run in loops — `lifebus ping` and `lifebus fire EVENT`
/// with the global flags — measured against `dbus-send` by `scripts/bench`. A plain value: what the words asked for.
///
/// ArgumentParser builds its tree by reflection, and in a static binary every first conformance check it makes
/// scans the binary's ≈ 4,000 conformance records: that was most of a ping's start-up. So these few exact shapes
/// are read here, before ArgumentParser, and run the very code their subcommands run (`PingSeries.run`,
/// `FireRunner.fire`). ArgumentParser stays the parser of everything else: any other word (help, `--version`,
/// another option, a repeated or misspelled flag, a value that looks like a flag) makes `init?` fail and the
/// command goes through `LifebusCommand.runAsMain`, which parses, explains and exits as usual.
/// Invariant (tested against ArgumentParser's own parse): a shape read here is parsed by ArgumentParser into the
/// same socket, output and request.
public struct OneShotCommand: Equatable {
    enum Request: Equatable {
        case ping
        /// `fire EVENT` with the event's default action.
        case fire(FireParams.FireEvent, wait: Bool)
    }

    var request: Request
    var socket: String?
    var json = false

    /// The events whose subcommand takes no argument (their declaration targets the device and requires no action:
    /// not `power battery`): `fire EVENT` alone sends the event with its default action and level.
    static let plainEvents = FireEvent.allCases.filter {
        $0.declaration.target == .device && !$0.declaration.requiresAction
    }

    /// Reads `words` (the arguments after the program name); `nil` unless they are exactly one of the shapes
    /// `ping [--socket PATH | --socket=PATH] [--json]` or `fire EVENT [the same] [--no-wait]`, each flag at most once.
    init?(_ words: [String]) {
        var rest = words[...]
        var noWait: Bool?
        switch rest.popFirst() {
        case "ping":
            request = .ping
        case "fire":
            guard let name = rest.popFirst(), let event = FireParams.FireEvent(rawValue: name),
                  Self.plainEvents.contains(event) else { return nil }
            request = .fire(event, wait: true)
            noWait = false
        default:
            return nil
        }
        while let word = rest.popFirst() {
            if word == "--json", !json {
                json = true
            } else if word == "--no-wait", noWait == false {
                noWait = true
            } else if word == "--socket", socket == nil, let path = rest.popFirst(), Self.isValue(path) {
                socket = path
            } else if word.hasPrefix("--socket="), socket == nil, Self.isValue(String(word.dropFirst(9))) {
                socket = String(word.dropFirst(9))
            } else {
                return nil
            }
        }
        if case .fire(let event, _) = request, noWait == true {
            request = .fire(event, wait: false)
        }
    }

    /// A word ArgumentParser takes as an option's value without question: not empty, not flag-like.
    private static func isValue(_ word: String) -> Bool {
        !word.isEmpty && !word.hasPrefix("-")
    }

    /// What ArgumentParser would build for the same words: the request's `fire` params.
    var fireParams: FireParams? {
        guard case .fire(let event, let wait) = request else { return nil }
        return FireParams(event: event, wait: wait)
    }

    /// Runs the command and exits with its documented status (`words` for the report of an error).
    func run(words: [String]) -> Never {
        let path = GlobalOptions.socketPath(explicit: socket)
        do {
            if let fireParams {
                try FireRunner.fire(fireParams, path: path, json: json) { _ in [] }
            } else {
                try PingSeries.run(path: path, json: json, count: 1, retryFor: nil)
            }
            exit(0)
        } catch {
            LifebusCommand.exitReporting(error, words: words)
        }
    }

    /// Runs the process's command when it is one of the fast shapes (and exits); returns otherwise.
    public static func runIfOneShot(_ words: [String] = Array(CommandLine.arguments.dropFirst())) {
        OneShotCommand(words)?.run(words: words)
    }
}

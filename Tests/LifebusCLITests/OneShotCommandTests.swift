import ArgumentParser
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// The one-shot fast path reads exactly what ArgumentParser would parse from the same words, and leaves everything
/// else to ArgumentParser.
@Suite struct OneShotCommandTests {
    /// Every shape the fast path takes: each request with every combination and order of the global flags.
    static var acceptedShapes: [[String]] {
        let flagSets: [[[String]]] = [
            [], [["--json"]], [["--socket", "/tmp/a.sock"]], [["--socket=/tmp/b.sock"]],
            [["--json"], ["--socket", "/tmp/c.sock"]], [["--socket=/tmp/d.sock"], ["--json"]],
        ]
        let requests = [["ping"]] + OneShotCommand.plainEvents.map { ["fire", $0.rawValue] }
        var shapes: [[String]] = []
        for request in requests {
            let extras: [[String]] = request[0] == "fire" ? [[], ["--no-wait"]] : [[]]
            for flags in flagSets {
                for extra in extras {
                    shapes.append(request + flags.joined() + extra)
                    shapes.append(request + extra + flags.reversed().joined())
                }
            }
        }
        return shapes
    }

    @Test(arguments: acceptedShapes)
    func readsWhatArgumentParserParses(words: [String]) throws {
        let fast = try #require(OneShotCommand(words), "the fast path should take \(words)")
        let parsed = try LifebusCommand.parseAsRoot(words)
        if let ping = parsed as? LifebusCommand.Ping {
            #expect(fast.request == .ping)
            #expect(fast.socket == ping.global.socket)
            #expect(fast.json == ping.global.json)
            #expect(ping.count == 1 && ping.wait == nil)
        } else {
            let fire = try #require(parsed as? any FireSubcommand)
            #expect(fast.fireParams == fire.params)
            #expect(fast.socket == fire.options.global.socket)
            #expect(fast.json == fire.options.global.json)
            #expect(fire.options.expect == nil && fire.options.failOn == nil)
        }
    }

    static let leftToArgumentParser: [[String]] = [
        [], ["status"], ["ping", "--help"], ["ping", "-h"], ["ping", "help"], ["ping", "--version"],
        ["ping", "--count", "2"], ["ping", "--wait", "5s"], ["ping", "--json", "--json"], ["ping", "--socket"],
        ["ping", "--socket", "--json"], ["ping", "--socket="], ["ping", "--socket", "a", "--socket", "b"],
        ["ping", "extra"], ["ping", "--generate-completion-script", "bash"], ["fire"], ["fire", "--no-wait"],
        ["fire", "memory-warning", "--level", "critical"], ["fire", "launch", "com.example"],
        ["fire", "terminate", "com.example"],
        ["fire", "home", "--expect", "ok"], ["fire", "home", "--no-wait", "--no-wait"], ["fire", "call", "--answer"],
        ["fire", "hom"], ["ping", "--no-wait"],
    ]

    @Test(arguments: leftToArgumentParser)
    func leavesEverythingElseToArgumentParser(words: [String]) {
        #expect(OneShotCommand(words) == nil)
    }

    /// ArgumentParser names a command without `commandName` by `String(describing:)` of its type, and each such
    /// call scans every conformance record of the static binary: every command names itself.
    @Test func everyCommandNamesItself() {
        var unnamed: [String] = []
        var pending: [any ParsableCommand.Type] = [LifebusCommand.self]
        while let command = pending.popLast() {
            if command.configuration.commandName == nil { unnamed.append("\(command)") }
            pending += command.configuration.subcommands
        }
        #expect(unnamed.isEmpty, "commands without commandName: \(unnamed)")
    }
}

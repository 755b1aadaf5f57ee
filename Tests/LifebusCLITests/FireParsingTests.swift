import ArgumentParser
import LifebusLifecycle
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// `lifebus fire …` parses into the `fire` params the broker is sent, and rejects conflicting flags as usage errors.
@Suite struct FireParsingTests {
    /// Every form of every event as its label spells it (`EventTablesTests` drives the same through every table),
    /// and the shapes only the command line has: a positional `terminate` app, `--no-wait`.
    static let cases: [([String], FireParams)] = FireParams.FireEvent.allCases.flatMap { event in
        event.declaration.forms.map { form in
            let params = FireParams(event, form.detail, app: "com.example.A")
            return (params.label.split(separator: " ").map(String.init), params)
        }
    } + [
        (["terminate", "com.example.A"], FireParams(event: .terminate, app: "com.example.A")),
        (["call", "--decline", "--no-wait"], FireParams(event: .call, action: .decline, wait: false)),
        (["home", "--no-wait"], FireParams(event: .home, wait: false)),
        (["memory-warning"], FireParams(event: .memoryWarning)),
        (["scene", "close", "com.example.A", "--app"], FireParams(event: .scene, action: .close, app: "com.example.A")),
        (["scene", "open", "com.example.A", "--url", "notes://7", "--activity", #"{"type": "edit"}"#], {
            var params = FireParams(event: .scene, action: .open, app: "com.example.A")
            params.url = "notes://7"
            params.activity = #"{"type":"edit"}"#
            return params
        }()),
        (["launch", "com.example.A", "--push", #"{"aps":{}}"#], {
            var params = FireParams(event: .launch, app: "com.example.A")
            params.push = #"{"aps":{}}"#
            return params
        }()),
        (["push", "com.example.A", "--silent"], FireParams(event: .push, action: .silent, app: "com.example.A")),
        (["push", "com.example.A", "--content-available"],
         FireParams(event: .push, action: .silent, app: "com.example.A")),
        (["push", "com.example.A", "--alert", "--tap"], FireParams(event: .push, action: .tap, app: "com.example.A")),
    ]

    @Test(arguments: cases)
    func eachEventParsesIntoValidFireParams(arguments: [String], expected: FireParams) throws {
        let command = try LifebusCommand.parseAsRoot(["fire"] + arguments)
        let params = try #require((command as? any FireSubcommand)?.params)
        #expect(params == expected)
        #expect(throws: Never.self) { try params.validate() }
    }

    @Test(arguments: [
        ["call", "--answer", "--decline"],
        ["call", "--decline", "--end"],
        ["sms", "--reply", "--dismiss"],
        ["sms", "--banner", "--reply"],
        ["calendar", "--view", "--dismiss"],
        ["memory-warning", "--level", "severe"],
        ["terminate"],
        ["terminate", "--app", "not an id"],
        ["terminate", "com.example.A", "--app", "com.example.B"],
        ["launch"],
        ["activate", "bad/id"],
        ["sleep", "--answer"],
        ["explode"],
        ["scene", "com.example.A"],
        ["scene", "reclaim", "com.example.A"],
        ["scene", "close", "com.example.A"],
        ["scene", "close", "com.example.A", "2", "--app"],
        ["scene", "open", "com.example.A", "2"],
        ["scene", "focus", "com.example.A", "0"],
        ["scene", "reclaim", "com.example.A", "1", "--url", "x://"],
        ["scene", "open", "com.example.A", "--activity", "[1]"],
        ["launch", "com.example.A", "--url", "x://", "--push", "{}"],
        ["launch", "com.example.A", "--push", "not json"],
    ])
    func conflictingOrMissingArgumentsExitWithUsage(arguments: [String]) {
        #expect(CLIUsage.exitStatus(of: ["fire"] + arguments) == CLIExitStatus.usage.rawValue)
    }

    @Test(arguments: FireParams.FireEvent.allCases)
    func eachEventsHelpSaysWhatItDoesAndListsItsChoices(event: FireParams.FireEvent) {
        let help = LifebusCommand.helpMessage(for: event.command).split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        let declaration = event.declaration
        #expect(help.contains(declaration.summary))
        if declaration.requiresAction {  // the action is a word: `lifebus fire scene open APP`
            #expect(help.contains("(values: \(declaration.actions.map(\.rawValue).joined(separator: ", ")))"))
        } else {
            for action in declaration.actions {  // a flag may have other names after its own (`--content-available`)
                let flag = "--\(action.rawValue)"
                let named = help.contains("\(flag) \(action.summary)")
                    || help.components(separatedBy: "\(flag), --").dropFirst().contains { afterNames in
                        afterNames.drop { $0 != " " }.dropFirst().hasPrefix(action.summary)
                    }
                #expect(named, "\(action)")
            }
        }
        if !declaration.levels.isEmpty {
            #expect(help.contains("(values: \(declaration.levels.map(\.rawValue).joined(separator: ", ")))"))
        }
        #expect(help.contains("--by-user") == declaration.takesByUser)
    }

    @Test func theFireCommandHasOneSubcommandPerEventNamedAsTheWireSpellsIt() {
        let names = LifebusCommand.Fire.configuration.subcommands.map { $0.configuration.commandName }
        #expect(names == FireParams.FireEvent.allCases.map(\.rawValue))
    }

    @Test func twoActionsAreRefusedNamingBoth() throws {
        let message = try #require(CLIUsage.message(of: ["fire", "call", "--answer", "--decline"]))
        #expect(message.contains("--answer") && message.contains("--decline"))
    }

    @Test func globalFlagsReachTheFireOptions() throws {
        let command = try LifebusCommand.parseAsRoot(["fire", "home", "--json", "--socket", "/tmp/x.sock", "--no-wait"])
        let home = try #require(command as? LifebusCommand.Fire.Home)
        #expect(home.options.global.json)
        #expect(home.options.global.socketPath == "/tmp/x.sock")
        #expect(home.options.noWait)
    }
}

/// What `runAsMain` would exit with for a parse failure, without running anything.
enum CLIUsage {
    /// What the CLI prints for a usage error in `arguments`; `nil` when they parse.
    static func message(of arguments: [String]) -> String? {
        do {
            _ = try LifebusCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return LifebusCommand.message(for: error)
        }
    }

    static func exitStatus(of arguments: [String]) -> Int32? {
        do {
            _ = try LifebusCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return LifebusCommand.exitStatus(for: error)
        }
    }
}

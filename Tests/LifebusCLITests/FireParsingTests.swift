import ArgumentParser
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// `lifebus fire …` parses into the `fire` params the broker is sent, and rejects conflicting flags as usage errors.
@Suite struct FireParsingTests {
    static let cases: [([String], FireParams)] = [
        (["call"], FireParams(event: .call)),
        (["call", "--answer"], FireParams(event: .call, action: .answer)),
        (["call", "--decline", "--no-wait"], FireParams(event: .call, action: .decline, wait: false)),
        (["call", "--end"], FireParams(event: .call, action: .end)),
        (["sms"], FireParams(event: .sms)),
        (["sms", "--reply"], FireParams(event: .sms, action: .reply)),
        (["sms", "--dismiss"], FireParams(event: .sms, action: .dismiss)),
        (["sms", "--banner"], FireParams(event: .sms, action: .banner)),
        (["calendar", "--view"], FireParams(event: .calendar, action: .view)),
        (["calendar", "--dismiss"], FireParams(event: .calendar, action: .dismiss)),
        (["sleep"], FireParams(event: .sleep)),
        (["wake"], FireParams(event: .wake)),
        (["home", "--no-wait"], FireParams(event: .home, wait: false)),
        (["memory-warning"], FireParams(event: .memoryWarning)),
        (["memory-warning", "--level", "critical"], FireParams(event: .memoryWarning, level: .critical)),
        (["terminate", "--app", "com.example.A"], FireParams(event: .terminate, app: "com.example.A")),
        (["terminate", "com.example.A"], FireParams(event: .terminate, app: "com.example.A")),
        (
            ["terminate", "--app", "com.example.A", "--by-user"],
            FireParams(event: .terminate, app: "com.example.A", byUser: true)
        ),
        (["launch", "com.example.A"], FireParams(event: .launch, app: "com.example.A")),
        (["activate", "com.example.B"], FireParams(event: .activate, app: "com.example.B")),
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
    ])
    func conflictingOrMissingArgumentsExitWithUsage(arguments: [String]) {
        #expect(CLIUsage.exitStatus(of: ["fire"] + arguments) == CLIExitStatus.usage.rawValue)
    }

    @Test func everyActionFlagIsSpeltAsTheWireActionItSends() {
        let flags = CallActionFlag.allCases.map(\.wireAction) + SMSActionFlag.allCases.map(\.wireAction)
            + CalendarActionFlag.allCases.map(\.wireAction)
        #expect(flags.allSatisfy { $0 != nil })
        #expect(CallActionFlag.allCases.map(\.rawValue) == ["answer", "decline", "end"])
        #expect(SMSActionFlag.allCases.map(\.rawValue) == ["reply", "dismiss", "banner"])
        #expect(CalendarActionFlag.allCases.map(\.rawValue) == ["view", "dismiss"])
    }

    @Test func theHelpListsEachChoice() {
        let call = LifebusCommand.helpMessage(for: LifebusCommand.Fire.Call.self)
        #expect(["--answer", "--decline", "--end"].allSatisfy(call.contains))
        let sms = LifebusCommand.helpMessage(for: LifebusCommand.Fire.SMS.self)
        #expect(["--reply", "--dismiss", "--banner"].allSatisfy(sms.contains))
        let level = LifebusCommand.helpMessage(for: LifebusCommand.Fire.MemoryWarning.self)
        let words = level.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("(values: warning, critical)"))
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

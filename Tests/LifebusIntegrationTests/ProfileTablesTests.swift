import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// Every profile through every table that names profiles: its wire spelling in `hello`, `status` and the journal's
/// `run` record (round trip), the schemas' enums, `lifebusd --profile` (help, validation, what the broker then says)
/// and `lifebus run --profile` (help, validation), the contract's vocabulary and the protocol document, and each
/// callback's budget under it (`Budgets.defaults(for:)` from the callbacks' declarations). A profile
/// added to `Profile` fails here until each table has it.
@Suite struct ProfileTablesTests {
    static let spellings = Profile.allCases.map(\.rawValue)

    @Test(arguments: Profile.allCases)
    func theWireTypesCarryEachProfileUnderItsOwnWord(profile: Profile) throws {
        let field = #""profile":"\#(profile.rawValue)""#
        let hello = HelloResult(role: .controller, peer: PeerIdentity(pid: 1, uid: 2, gid: 3), profile: profile)
        #expect(hello.json.jsonText.contains(field))
        #expect(try HelloResult(json: hello.json) == hello)
        let status = StatusResult(profile: profile, locked: false, call: .none, alert: nil, foreground: nil, apps: [])
        #expect(status.json.jsonText.contains(field))
        #expect(try StatusResult(json: status.json) == status)
        let run = RunRecord(seq: 1, reason: .start, brokerVersion: "0", protocolVersion: 1, profile: profile,
                            timeScale: 1, pid: 1, startedWallMs: 0, atMs: 0, wallMs: 0)
        #expect(run.json.jsonText.contains(field))
        #expect(try RunRecord(json: run.json) == run)
    }

    @Test(arguments: Profile.allCases)
    func eachProfileBudgetsEveryCallbackAsItsDeclarationSaysAndBackgroundTimeOnlyWithMultitasking(profile: Profile) {
        let budgets = Budgets.defaults(for: profile)
        for callback in LifecycleCallback.allCases {
            #expect(budgets[callback] == callback.defaultBudget(under: profile), "\(profile): \(callback)")
            #expect(budgets[callback] > .zero, "\(profile): \(callback)")
        }
        #expect((budgets.backgroundTask != nil) == profile.hasMultitasking)
    }

    @Test(arguments: ["hello.result", "status.result", "run.record"])
    func eachSchemaNamesEveryProfile(schema: String) throws {
        let path = "\(TranscriptReplayTests.repositoryRoot)/Protocol/schemas/\(schema).schema.json"
        let document = try JSONParser.parse(String(decoding: try readBytes(path), as: UTF8.self))
        let values = document["properties"]?["profile"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(values == Self.spellings)
    }

    @Test func theScenarioSchemaNamesEveryProfile() throws {
        let path = "\(TranscriptReplayTests.repositoryRoot)/Protocol/schemas/scenario.schema.json"
        let document = try JSONParser.parse(String(decoding: try readBytes(path), as: UTF8.self))
        let values = document["properties"]?["profiles"]?["items"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(values == Self.spellings)
    }

    @Test func theContractAndTheProtocolDocumentNameEveryProfile() throws {
        let root = TranscriptReplayTests.repositoryRoot
        let contract = String(decoding: try readBytes("\(root)/Protocol/lifecycle.md"), as: UTF8.self)
        // The vocabulary's bullet `- **Profiles**: …` and its continuation lines.
        let vocabulary = contract.split(separator: "\n").drop { !$0.hasPrefix("- **Profiles**:") }.enumerated()
            .prefix { $0.offset == 0 || $0.element.hasPrefix("  ") }.map(\.element).joined(separator: " ")
        let readme = String(decoding: try readBytes("\(root)/Protocol/README.md"), as: UTF8.self)
        for profile in Self.spellings {
            #expect(vocabulary.contains("`\(profile)`"), "lifecycle.md's vocabulary: \(profile)")
            #expect(readme.contains("`\(profile)`"), "README.md: \(profile)")
        }
    }

    @Test(arguments: Profile.allCases)
    func theDaemonRunsEachProfileItsOptionNames(profile: Profile) throws {
        let broker = try BrokerFixture(arguments: ["--profile", profile.rawValue],
                                       socketPath: BrokerFixture.uniqueSocketPath("profile"))
        let client = try broker.connect()
        #expect(parsed(client.hello())?["result"]?["profile"]?.stringValue == profile.rawValue)
        #expect(broker.stop() == 0)
    }

    @Test func theDaemonsHelpAndItsRefusalListEveryProfile() throws {
        let help = try ChildProcess("lifebusd", ["--help"])
        let text = help.stdout.readAll()
        #expect(help.wait() == 0)
        #expect(text.contains("--profile <profile>       The device model: \(Self.spellings.joined(separator: ", "))"))
        let refused = try ChildProcess("lifebusd", ["--profile", "ios9"])
        let message = refused.stderr.readAll()
        #expect(refused.wait() == 2)
        #expect(message.contains("one of \(Self.spellings.joined(separator: ", "))"))
    }

    @Test func runsHelpListsEveryProfileAndAll() throws {
        let help = try ChildProcess("lifebus-run", ["--help"])
        let text = help.stdout.readAll().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.wait() == 0)
        #expect(text.contains("(values: \((Self.spellings + ["all"]).joined(separator: ", ")); default: all)"))
    }

    @Test(arguments: Profile.allCases.map(\.rawValue) + ["all"])
    func runAcceptsEachProfileAndAll(word: String) throws {
        // No file given: a usage error about the files (2) after --profile parsed, never one about the profile.
        let run = try ChildProcess("lifebus-run", ["--profile", word])
        let message = run.stderr.readAll()
        #expect(run.wait() == 2)
        #expect(message.contains("name at least one scenario file"))
    }

    @Test func runRefusesAnUnknownProfileNamingTheValues() throws {
        let run = try ChildProcess("lifebus-run", ["--profile", "ios9", "x.yaml"])
        let message = run.stderr.readAll()
        #expect(run.wait() == 2)
        #expect(message.contains("ios9") && Self.spellings.allSatisfy(message.contains))
    }
}

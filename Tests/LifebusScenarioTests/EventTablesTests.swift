import Foundation
import LifebusCore
import LifebusFuzzing
import LifebusJSON
import LifebusLifecycle
import LifebusScenario
import Testing

@testable import LifebusCLI
@testable import LifebusProtocol

/// Every form of every controller event (`FireEvent.Declaration.forms`, and each event bare) driven through every
/// table that names events: the wire (JSON round trip, the canonical reader, the packed word), the label and its
/// reader, the device's event and back (`ControllerEvent.fired`), the command line (`lifebus fire` and scenario
/// files' `fire` steps), the schemas (`fire.params`' enums and per-event rules, `scenario`'s `fire` pattern), the
/// protocol document's `fire` table, the fuzzer (it generates the form), the daemon fuzzer's dictionary and
/// `Protocol/lifecycle.md` (a row of the declared section spells it). An event or action added to the declaration
/// fails here until each hand-written table has it; the others are derived from the declaration.
@Suite struct EventTablesTests {
    /// One way to fire an event, as the tables see it.
    struct Form: CustomTestStringConvertible, Sendable {
        let params: FireParams
        let fuzzWeight: Int

        var testDescription: String { params.label }
    }

    static let app = "com.example.A"

    /// Each declared form, then each event bare (its default action and level implied) but those that require an
    /// action (`scene`).
    static let forms: [Form] = FireEvent.allCases.flatMap { event in
        event.declaration.forms.map { Form(params: FireParams(event, $0.detail, app: app), fuzzWeight: $0.fuzzWeight) }
    } + FireEvent.allCases.filter { !$0.declaration.requiresAction }.map {
        var params = FireParams(event: $0, app: $0.declaration.target == .app ? app : nil)
        if $0 == .bgtask { params.identifier = "refresh" }  // a task is named by its identifier
        return Form(params: params, fuzzWeight: 0)
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func schema(_ name: String) throws -> JSONValue {
        try JSONParser.parse(String(contentsOf: root.appendingPathComponent("Protocol/schemas/\(name).schema.json"),
                                    encoding: .utf8))
    }

    @Test func everyDeclarationKeepsItsInvariants() {
        for event in FireEvent.allCases {
            let declaration = event.declaration
            let details = declaration.forms.map(\.detail)
            #expect(!details.isEmpty, "\(event)")
            #expect(declaration.actions.isEmpty || declaration.actions.count == details.count, "\(event)")
            #expect(declaration.levels.isEmpty || declaration.levels == MemoryWarningLevel.allCases, "\(event)")
            #expect(!declaration.takesByUser || details == [.plain, .byUser], "\(event)")
            #expect(Set(details).count == details.count, "\(event)")
        }
    }

    @Test(arguments: forms)
    func theWireCarriesEachForm(form: Form) throws {
        let params = form.params
        #expect(try FireParams(json: params.json) == params)
        let text = params.json.jsonBytes
        let read = text.withUnsafeBytes { FireParams.readCanonical($0) }
        // Scene members are left to the general path (the canonical reader knows the members every event has).
        #expect(read?.params == (params.hasSceneMembers ? nil : params))
        if params.app == nil {
            #expect(FireParams.Packed(params, members: .all)?.params == params)
        }
    }

    @Test(arguments: forms)
    func theLabelSpellsEachFormAndReadsBack(form: Form) {
        #expect(form.params.label.hasPrefix(form.params.event.rawValue))
        #expect(FireParams(label: form.params.label) == form.params)
    }

    @Test(arguments: forms)
    func theDeviceHasAnEventForEachFormAndBack(form: Form) throws {
        #expect(throws: Never.self) { try form.params.validate() }
        let event = try #require(ControllerEvent(
            form.params.event, action: form.params.action, app: form.params.app.map { AppID($0) },
            level: form.params.level, byUser: form.params.byUser, scene: form.params.scene,
            session: form.params.session, identifier: form.params.identifier, payload: form.params.payload))
        #expect(form.params.controllerEvent == event, "the broker's path, which does not check the declaration again")
        // And back: the fired event that means it names the same event and app (its action and level explicit).
        let fired = try #require(event.fired)
        #expect(fired.event == form.params.event && fired.app?.rawValue == form.params.app)
        #expect(ControllerEvent(fired.event, action: fired.action, app: fired.app, level: fired.level,
                                byUser: fired.byUser, scene: fired.scene, session: fired.session,
                                options: fired.options, identifier: fired.identifier, payload: fired.payload) == event)
    }

    @Test(arguments: forms)
    func theCommandLineAndScenarioFilesParseEachLabel(form: Form) throws {
        let words = form.params.label.split(separator: " ").map(String.init)
        #expect(try FireWords.parse(words).get() == form.params)
        let pattern = Self.firePattern(try Self.schema("scenario"))
        let regex = try Regex(try #require(pattern))
        #expect(form.params.label.wholeMatch(of: regex) != nil, "the scenario schema's fire pattern")
    }

    @Test func theFireSchemaListsEveryEventActionAndLevelWithTheirRules() throws {
        let schema = try Self.schema("fire.params")
        let properties = schema["properties"]
        #expect(properties?["event"]?["enum"] == .array(FireEvent.allCases.map { .string($0.rawValue) }))
        #expect(Set(Self.strings(properties?["action"]?["enum"])) == Set(FireAction.allCases.map(\.rawValue)))
        #expect(Self.strings(properties?["level"]?["enum"]) == MemoryWarningLevel.allCases.map(\.rawValue))
        let rules = schema["allOf"]?.arrayValue ?? []
        for event in FireEvent.allCases where !event.declaration.actions.isEmpty {
            let rule = rules.first { $0["if"]?["properties"]?["event"]?["const"]?.stringValue == event.rawValue }
            #expect(Self.strings(rule?["then"]?["properties"]?["action"]?["enum"])
                == event.declaration.actions.map(\.rawValue), "\(event)")
        }
        let noAction = rules.first { $0["then"]?["anyOf"]?[0]?["not"]?["required"] == ["action"] }
        #expect(Set(Self.strings(noAction?["if"]?["properties"]?["event"]?["enum"]))
            == Set(FireEvent.allCases.filter { $0.declaration.actions.isEmpty }.map(\.rawValue)))
        let needsApp = rules.first { $0["then"]?["required"] == ["app"] }
        #expect(Set(Self.strings(needsApp?["if"]?["properties"]?["event"]?["enum"]))
            == Set(FireEvent.allCases.filter { $0.declaration.target == .app }.map(\.rawValue)))
        let levelOnly = rules.compactMap { $0["if"]?["properties"]?["event"]?["not"]?["const"]?.stringValue }
        #expect(levelOnly == FireEvent.allCases.filter { !$0.declaration.levels.isEmpty }.map(\.rawValue)
            + FireEvent.allCases.filter(\.declaration.takesByUser).map(\.rawValue))
    }

    @Test(arguments: FireEvent.allCases)
    func theProtocolDocumentsTableSaysWhatEachEventTakes(event: FireEvent) throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("Protocol/README.md"), encoding: .utf8)
        let table = readme.components(separatedBy: "### 11.1 `fire`").dropFirst().first?
            .components(separatedBy: "\n\n").first { $0.hasPrefix("| `event`") } ?? ""
        let rows = table.split(separator: "\n")
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { Self.codeSpans(Substring($0.first ?? "")).contains("\(event.rawValue)") }
        try #require(rows.count == 1, "one row of the fire table names \(event.rawValue)")
        let cells = rows[0], declaration = event.declaration
        #expect(Self.codeSpans(Substring(cells[1])).map(String.init) == declaration.actions.map(\.rawValue))
        #expect((cells[2] == "required") == (declaration.target == .app))
        #expect(Self.codeSpans(Substring(cells[3])).map(String.init) == declaration.levels.map(\.rawValue))
        #expect((cells[4] == "allowed") == declaration.takesByUser)
    }

    @Test func theDaemonFuzzersDictionaryHasEveryEventActionAndLevel() throws {
        let dictionary = try String(contentsOf: Self.root.appendingPathComponent("Fuzz/daemon.dict"), encoding: .utf8)
        let words = FireEvent.allCases.map(\.rawValue) + FireAction.allCases.map(\.rawValue)
            + MemoryWarningLevel.allCases.map(\.rawValue)
        for word in words { #expect(dictionary.contains(#"="\"\#(word)\"""#), "\(word)") }
    }

    @Test func theFuzzerGeneratesEveryFormItWeighs() {
        var seen: Set<String> = []  // labels: one per params
        for profile in Profile.allCases {
            for seed in UInt64(1)...4 {
                // Scene apps (`--fact scenes`) under the profiles with scenes: the only ones that take scene events;
                // apps with a refresh task that take pushes (`--fact task=ID`, `--fact pushes`): the only ones the
                // background events are fuzzed for; with a processing task (`--fact processing=…`) the device's
                // conditions.
                let facts = AppFacts(
                    scenes: profile.sceneSupport != .none && seed % 2 == 0,
                    task: seed % 2 == 1 ? (identifier: "com.example.refresh", after: nil) : nil,
                    processing: seed % 2 == 1 ? ProcessingTaskFact(
                        identifier: "com.example.clean", requiresExternalPower: true) : nil,
                    pushes: seed % 2 == 1, taps: seed % 2 == 1)
                var generator = StepGenerator(seed: seed, profile: profile, apps: [Self.app, "com.example.B"],
                                              facts: facts)
                for step in generator.steps(400) {
                    switch step {
                    case .fire(let params): seen.insert(Self.wordsWithoutDefaults(params).joined(separator: " "))
                    case .launch, .relaunch: seen.insert("launch")
                    default: break
                    }
                }
            }
        }
        let weighed = Self.forms.filter { $0.fuzzWeight > 0 }
            .map { Self.wordsWithoutDefaults($0.params).joined(separator: " ") }
        #expect(weighed.filter { !seen.contains($0) } == [])
    }

    @Test(arguments: FireEvent.allCases)
    func aRowOfItsContractSectionSpellsEachForm(event: FireEvent) throws {
        let document = try String(contentsOf: Self.root.appendingPathComponent("Protocol/lifecycle.md"),
                                  encoding: .utf8)
        let rows = Self.rows(of: event.declaration.contractSection, in: document)
        #expect(!rows.isEmpty, "no section \"### \(event.declaration.contractSection)\" with rows")
        let spelled = Set(rows.flatMap(Self.codeSpans).map(Self.wordsWithoutApps))
        for form in Self.forms where form.params.event == event {
            #expect(spelled.contains(Self.wordsWithoutDefaults(form.params)), "\(form.params.label)")
        }
    }

    // MARK: reading the documents

    static func strings(_ value: JSONValue?) -> [String] {
        value?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The `fire` step's pattern, wherever the scenario schema nests it.
    static func firePattern(_ value: JSONValue) -> String? {
        if let pattern = value["properties"]?["fire"]?["pattern"]?.stringValue { return pattern }
        if let array = value.arrayValue { return array.lazy.compactMap(firePattern).first }
        return value.objectValue?.lazy.compactMap { firePattern($0.value) }.first
    }

    /// The table rows (`| R… |`, the scene table's `| S… |`, the background table's `| B… |`) under the
    /// `### heading…` (or `## heading`) section of lifecycle.md.
    static func rows(of heading: String, in document: String) -> [Substring] {
        var rows: [Substring] = [], inSection = false
        for line in document.split(separator: "\n") {
            if line.hasPrefix("#") { inSection = line.hasPrefix("### \(heading)") || line == "## \(heading)" }
            if inSection, line.hasPrefix("| R") || line.hasPrefix("| S") || line.hasPrefix("| B") { rows.append(line) }
        }
        return rows
    }

    static func codeSpans(_ row: Substring) -> [Substring] {
        row.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map(\.element)
    }

    /// A row's spelling with its placeholder apps (`A`, `B`, `--app A`) and scene or session numbers left out.
    static func wordsWithoutApps(_ span: Substring) -> [String] {
        span.split(separator: " ").map(String.init)
            .filter { $0 != "--app" && !($0.count == 1 && $0.first!.isUppercase) && !$0.allSatisfy(\.isNumber) }
    }

    /// A form's label as the rows spell it (and the fuzzer's steps are compared): no app, and the default action
    /// or level left implicit.
    static func wordsWithoutDefaults(_ params: FireParams) -> [String] {
        var words = [params.event.rawValue]
        if params.event.declaration.requiresAction, let action = params.action {
            words.append(action.rawValue)  // a word, never implied: `scene open A`
        } else if let action = params.action, action != params.event.declaration.actions.first {
            words.append("--" + action.rawValue)
        }
        if let level = params.level, level != params.event.declaration.levels.first {
            words += ["--level", level.rawValue]
        }
        if params.byUser { words.append("--by-user") }
        return words
    }
}

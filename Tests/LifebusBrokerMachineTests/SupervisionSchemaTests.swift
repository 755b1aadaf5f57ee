import Foundation
import LifebusBrokerMachine
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The supervision schemas the machine answers or reads (`install`, `uninstall`, `apps` and its app lines), derived
/// from what the machine does, as `SchemaDerivationTests` derives the protocol types' schemas: the members it always
/// writes are the declared and the required ones, its enums are the Swift cases, and the members its reader takes
/// and requires are the schema's.
@Suite struct SupervisionSchemaTests {
    struct Schema {
        let properties: JSONObject
        let required: Set<String>

        init(_ name: String) throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let url = root.appendingPathComponent("Protocol/schemas/\(name).schema.json")
            let json = try JSONParser.parse(Array(try Data(contentsOf: url)))
            properties = try #require(json["properties"]?.objectValue, "\(name) has no properties")
            required = Set((json["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        }

        var declared: Set<String> { Set(properties.keys) }

        /// The string values of a member's `enum`, `nil` without one.
        func enumValues(_ member: String) -> Set<String>? {
            properties[member]?["enum"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        }
    }

    static func cases<E: CaseIterable & RawRepresentable>(_: E.Type) -> Set<String> where E.RawValue == String {
        Set(E.allCases.map(\.rawValue))
    }

    /// The field a refusal names, `"?"` for an answer that is no refusal naming one.
    static func refusedField(_ answer: Result<JSONValue, RPCError>?) -> String {
        guard case .failure(let error) = answer else { return "?" }
        return error.data?["field"]?.stringValue ?? "?"
    }

    @Test func theAppsAnswerAndEachOfItsAppLinesWriteTheirSchemasMembers() throws {
        var (harness, controller) = try ProcessesTests.installed()
        let (ticket, effects) = harness.request(controller, "apps")
        let result = try #require(try effects.reply(to: ticket)?.get())
        let apps = try Schema("apps.result")
        let written = Set(try #require(result.objectValue).keys)
        #expect(written == apps.declared, "writes \(written.sorted()), declares \(apps.declared.sorted())")
        #expect(written == apps.required, "writes \(written.sorted()), requires \(apps.required.sorted())")
        #expect(apps.enumValues("pressure") == Self.cases(MemoryPressure.self))

        let line = Set(try #require(result["apps"]?[0]?.objectValue).keys)
        let app = try Schema("installed-app")
        #expect(line == app.declared, "writes \(line.sorted()), declares \(app.declared.sorted())")
        #expect(line == app.required, "writes \(line.sorted()), requires \(app.required.sorted())")
        #expect(app.enumValues("state") == Self.cases(LifecycleState.self))
    }

    @Test func uninstallReadsAndRequiresTheSchemasOneMember() throws {
        let schema = try Schema("uninstall.params")
        #expect(schema.declared == ["id"] && schema.required == ["id"])
        var (harness, controller) = try ProcessesTests.installed()
        for params in ["{}", #"{"id":7}"#] {
            let (ticket, effects) = harness.request(controller, "uninstall", params)
            #expect(Self.refusedField(effects.reply(to: ticket)) == "id", "\(params)")
        }
        let (ticket, effects) = harness.request(controller, "uninstall", #"{"id":"com.example.Notes"}"#)
        #expect(try effects.reply(to: ticket)?.get() == EmptyResult.json)
    }

    @Test func installReadsEitherOfTheSchemasTwoMembersAndRequiresNeither() throws {
        let schema = try Schema("install.params")
        #expect(schema.declared == ["path", "manifest", "environment"] && schema.required.isEmpty)
        var harness = MachineHarness()
        let (controller, _) = harness.introduce("controller")
        for params in [#"{"path":"/apps/notes.json"}"#, #"{"manifest":{"id":"com.example.Notes"}}"#,
                       #"{"path":"/apps/notes.json","environment":{"HOME":"/root"}}"#] {
            let (_, effects) = harness.request(controller, "install", params)
            let asked = effects.contains { if case .install = $0 { true } else { false } }
            #expect(asked, "\(params) is read")
        }
        for params in ["{}", #"{"path":7}"#, #"{"manifest":"m"}"#, #"{"path":"/a.json","manifest":{}}"#] {
            let (ticket, effects) = harness.request(controller, "install", params)
            guard case .failure = effects.reply(to: ticket) else {
                Issue.record("\(params) is not refused")
                continue
            }
        }
    }
}

import Foundation
import LifebusJSON
import LifebusProtocol
import Testing

/// The files under `Protocol/` stay in step with the code.
@Suite struct ProtocolDocumentTests {
    static let schemaNames = [
        "request", "response", "notification", "error", "hello.params", "hello.result", "ping.result",
        "event-cause", "callback.params", "callback.result", "beginBackgroundTask.params", "beginBackgroundTask.result",
        "endBackgroundTask.params", "backgroundTaskExpiring.params", "mark.params", "reportMemory.params",
        "empty.result", "fire.params", "fire.result", "status.params", "status.result", "app-status", "wait.params",
        "wait.result", "history.params", "history.result", "transition.record", "mark.record", "journal-entry",
        "run.record", "manifest", "advance.params", "advance.result", "clock.result",
        "process.record", "install.params", "uninstall.params", "installed-app",
        "apps.result", "launch-context", "saveRestorationState.params", "scenario",
        "registerBackgroundTask.params", "submitBackgroundTask.params", "setTaskCompleted.params",
        "protectedData.result", "task.record", "push.record", "protectedData.record",
    ].map { "\($0).schema.json" }

    static func readme() throws -> String {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Protocol/README.md")
        return String(decoding: try Fixtures.bytes(url), as: UTF8.self)
    }

    @Test(arguments: schemaNames)
    func everySchemaIsJSONOurParserReadsAndNamesItself(name: String) throws {
        let bytes = try Fixtures.bytes(Fixtures.schemas.appendingPathComponent(name))
        let schema = try JSONParser.parse(bytes)
        #expect(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$id"]?.stringValue?.hasSuffix("/" + name) == true)
        #expect(schema["type"] == "object")
    }

    @Test func theSchemaFolderHoldsExactlyTheDocumentedSchemas() {
        #expect(Fixtures.files(in: Fixtures.schemas, suffix: ".json") == Self.schemaNames.sorted())
    }

    @Test func theErrorTableInTheSpecListsEveryLifebusCode() throws {
        let readme = try Self.readme()
        for code in LifebusErrorCode.all {
            #expect(readme.contains("| \(code.code) | `\(code.name)` |"), "README lacks \(code)")
        }
        let standard: [RPCError] = [
            .parseError(""), .invalidRequest(""), .methodNotFound(""), .invalidParams(""), .internalError(""),
        ]
        for error in standard {
            #expect(readme.contains("| \(error.code) | `\(error.name ?? "?")` |"), "README lacks \(error)")
        }
    }

    @Test func theMethodTableInTheSpecListsEveryServedMethodWithItsRoles() throws {
        let readme = try Self.readme()
        for (method, roles) in MethodPolicy.roles where method != LifebusMethod.hello {
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(method)` | → B |") }
            let cells = try #require(row, "README method table lacks \(method)").split(separator: "|")
            let documented = Set(cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(documented == Set(roles.map(\.rawValue)), "roles of \(method)")
        }
    }

    @Test func theSpecMentionsEverySchema() throws {
        let readme = try Self.readme()
        for name in Self.schemaNames {
            let stem = String(name.dropLast(".schema.json".count))
            #expect(readme.contains(stem), "README never mentions \(name)")
        }
    }
}

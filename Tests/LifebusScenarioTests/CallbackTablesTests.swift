import Foundation
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import Testing

@testable import LifebusProtocol
@testable import LifebusTimeline

/// Every `LifecycleCallback` driven through every table that names callbacks: its wire spelling as the method of
/// the broker → app request and in `callback` params (round trip, the writers' quoted constant), its watchdog
/// budget under every profile, the schemas that enumerate callbacks (`callback.params`, `transition.record`,
/// every callback list of `scenario`), the timeline's gauge label, and the documents (`Protocol/lifecycle.md`'s
/// vocabulary, `Protocol/README.md`'s callbacks section). A callback added to the enum fails here until each
/// hand-written table has it; the switches over it (budgets, the SDK's dispatch, the timeline) fail to compile.
/// The vocabulary's states too (profiles: `ProfileTablesTests`).
@Suite struct CallbackTablesTests {
    static let spellings = LifecycleCallback.allCases.map(\.rawValue)

    @Test(arguments: LifecycleCallback.allCases)
    func theWireCarriesEachCallbackUnderItsOwnWord(callback: LifecycleCallback) throws {
        #expect(LifebusMethod.callback(callback) == callback.rawValue)
        #expect("\(callback.quotedJSON)" == "\"\(callback.rawValue)\"")
        let params = CallbackParams(callbackID: 1, callback: callback, state: .background, budgetMs: 5)
        #expect(params.json.jsonText.contains(#""callback":"\#(callback.rawValue)""#))
        #expect(try CallbackParams(json: params.json) == params)
    }

    @Test(arguments: LifecycleCallback.allCases)
    func eachCallbackHasABudgetUnderEveryProfile(callback: LifecycleCallback) {
        for profile in Profile.allCases {
            var budgets = Budgets.defaults(for: profile)
            #expect(budgets[callback] > .zero, "\(profile)")
            budgets[callback] = .milliseconds(7)
            #expect(budgets[callback] == .milliseconds(7))
            #expect(LifecycleCallback.allCases.filter { budgets[$0] == .milliseconds(7) } == [callback])
        }
    }

    @Test func eachCallbacksOrdinalIsItsPlaceInAllCases() {
        for (place, callback) in LifecycleCallback.allCases.enumerated() {
            #expect(callback.ordinal == place, "\(callback)")
        }
    }

    /// The budgets declared with each callback are the ones lifecycle.md's "Budgets" table documents (the row that
    /// names the callback ends with its budget, the same under every profile unless the row says otherwise).
    @Test(arguments: LifecycleCallback.allCases)
    func eachCallbacksDeclaredBudgetIsTheDocumentedOne(callback: LifecycleCallback) throws {
        let document = try String(contentsOf: EventTablesTests.root.appendingPathComponent("Protocol/lifecycle.md"),
                                  encoding: .utf8)
        let table = document.components(separatedBy: "## Budgets").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains("`\(callback.rawValue)`") }
        #expect(rows.count == 1, "one row names \(callback)")
        for profile in Profile.allCases {
            let seconds = callback.defaultBudget(under: profile).components.seconds
            #expect(rows.first?.hasSuffix("| \(seconds) s |") == true, "\(callback) under \(profile)")
        }
    }

    @Test func theTimelineLabelsEachCallbackApart() {
        let labels = LifecycleCallback.allCases.map(SVGTimeline.abbreviation)
        #expect(Set(labels).count == labels.count && !labels.contains(""))
    }

    @Test(arguments: ["callback.params", "transition.record"])
    func theSchemaEnumeratesEveryCallback(schema: String) throws {
        let values = try EventTablesTests.schema(schema)["properties"]?["callback"]?["enum"]
        #expect(EventTablesTests.strings(values) == Self.spellings)
    }

    @Test func everyCallbackListOfTheScenarioSchemaNamesEveryCallback() throws {
        let lists = Self.enums(in: try EventTablesTests.schema("scenario")).filter { $0.contains("didBecomeActive") }
        #expect(lists.count >= 2)
        for list in lists { #expect(list == Self.spellings) }
    }

    @Test func theDocumentsNameEveryCallback() throws {
        let vocabulary = try Self.vocabulary("Callbacks")
        let readme = try String(contentsOf: EventTablesTests.root.appendingPathComponent("Protocol/README.md"),
                                encoding: .utf8)
        let section = readme.components(separatedBy: "## 10. Callbacks").last?.components(separatedBy: "\n## ").first
        for name in Self.spellings {
            #expect(vocabulary.contains("`\(name)`"), "lifecycle.md's vocabulary: \(name)")
            #expect(section?.contains("`\(name)`") == true, "README.md's callbacks: \(name)")
        }
    }

    @Test func theVocabularyNamesEveryState() throws {
        let states = try Self.vocabulary("States")
        for state in LifecycleState.allCases { #expect(states.contains("`\(state.rawValue)`"), "\(state)") }
    }

    /// lifecycle.md's vocabulary bullet `- **NAME**: …`, up to the next bullet.
    static func vocabulary(_ name: String) throws -> String {
        let document = try String(contentsOf: EventTablesTests.root.appendingPathComponent("Protocol/lifecycle.md"),
                                  encoding: .utf8)
        return document.components(separatedBy: "- **\(name)**:").dropFirst().first?
            .components(separatedBy: "\n- ").first ?? ""
    }

    /// Every `enum` array of strings in a schema, however deeply nested.
    static func enums(in value: JSONValue) -> [[String]] {
        var found: [[String]] = []
        if let list = value["enum"]?.arrayValue { found.append(list.compactMap(\.stringValue)) }
        if let array = value.arrayValue { found += array.flatMap(enums) }
        if let object = value.objectValue { found += object.flatMap { enums(in: $0.value) } }
        return found
    }
}

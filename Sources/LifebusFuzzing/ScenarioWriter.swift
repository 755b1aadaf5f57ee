import LifebusJSON
public import LifebusScenario
import LifebusProtocol

/// Writes a scenario as a YAML file a person can read: `Scenario.json` (the format's members, which the parser reads
/// back equal) laid out in block style — one top-level member per line, one list item (an app, a step) per line,
/// each value in JSON's syntax, which YAML reads as double-quoted scalars and flow collections. What
/// `lifebus run --random` leaves as its reproducer. Stateless.
public enum ScenarioWriter {
    public static func yaml(_ scenario: Scenario) -> String {
        guard case .object(let members) = scenario.json else { return scenario.json.jsonText + "\n" }
        var lines: [String] = []
        for (key, value) in members {
            guard case .array(let items) = value, !items.isEmpty, items.allSatisfy(isSingleMember) else {
                lines.append("\(key): \(value.jsonText)")
                continue
            }
            lines.append("\(key):")
            for case .object(let item) in items {
                lines += item.map { "  - \($0.key): \($0.value.jsonText)" }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func isSingleMember(_ value: JSONValue) -> Bool {
        if case .object(let object) = value { return object.count == 1 }
        return false
    }
}

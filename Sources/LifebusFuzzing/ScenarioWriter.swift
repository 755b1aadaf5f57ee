public import LifebusScenario
import LifebusCore
import LifebusLifecycle
public import LifebusProtocol

/// Writes a scenario as a YAML file in the fixed format (`Protocol/scenarios.md`): what `lifebus run --random`
/// leaves as its reproducer, and what `lifebus run FILE` reads back as the same scenario.
///
/// Stateless. It writes every step and the `expect` members the fuzzer uses (`app`, `callbacks`, `state`, `mark`,
/// `outcome`; not `budget` or per-profile overrides); strings, mark data and mappings as JSON, which YAML reads as
/// double-quoted scalars and flow collections.
public enum ScenarioWriter {
    public static func yaml(_ scenario: Scenario) -> String {
        var lines = ["name: " + quoted(scenario.name)]
        if let description = scenario.description { lines.append("description: " + quoted(description)) }
        lines.append("profiles: [" + scenario.profiles.map(\.rawValue).joined(separator: ", ") + "]")
        if !scenario.apps.isEmpty {
            lines.append("apps:")
            for app in scenario.apps {
                switch app {
                case .manifest(let path): lines.append("  - manifest: " + quoted(path))
                case .id(let id): lines.append("  - id: " + quoted(id))
                }
            }
        }
        lines.append("steps:")
        lines += scenario.steps.map { "  - " + line(for: $0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One step as `key: value`.
    public static func line(for step: ScenarioStep) -> String {
        switch step {
        case .launch(let app): "launch: " + quoted(app)
        case .relaunch(let app): "relaunch: " + quoted(app)
        case .fire(let params): "fire: " + quoted(words(params))
        case .advance(let duration): "advance: " + DurationText.format(duration)
        case .kill(let kill): "kill: " + flow(["app": .string(kill.app), "signal": .string(kill.signal)])
        case .note(let text): "note: " + quoted(text)
        case .wait(let wait):
            "wait: " + flow([
                "app": .string(wait.app), "state": .string(wait.states.map(\.rawValue).joined(separator: "|")),
                "timeout": .string(DurationText.format(wait.timeout)),
            ])
        case .expect(let expectation): "expect: " + flow(members(of: expectation))
        }
    }

    /// The words of `lifebus fire` for these params: `call --answer`, `terminate ID --by-user`,
    /// `memory-warning --level critical`.
    public static func words(_ params: FireParams) -> String {
        var words = [params.event.rawValue]
        if let app = params.app { words.append(app) }
        if let action = params.action { words.append("--" + action.rawValue) }
        if let level = params.level { words += ["--level", level.rawValue] }
        if params.byUser { words.append("--by-user") }
        return words.joined(separator: " ")
    }

    private static func members(of expectation: ScenarioExpectation) -> JSONObject {
        var members = JSONObject()
        if let app = expectation.app { members["app"] = .string(app) }
        if let callbacks = expectation.callbacks {
            members["callbacks"] = .array(callbacks.map { .string($0.rawValue) })
        }
        if let states = expectation.states {
            members["state"] = .string(states.map(\.rawValue).joined(separator: "|"))
        }
        if let mark = expectation.mark {
            members["mark"] = mark.data.isEmpty ? .object(["name": .string(mark.name)])
                : .object(["name": .string(mark.name), "data": .object(mark.data)])
        }
        if let outcome = expectation.outcome { members["outcome"] = .string(outcome) }
        return members
    }

    private static func flow(_ object: JSONObject) -> String {
        JSONValue.object(object).jsonText
    }

    /// A YAML double-quoted scalar (JSON's string syntax is one).
    private static func quoted(_ text: String) -> String {
        JSONValue.string(text).jsonText
    }
}

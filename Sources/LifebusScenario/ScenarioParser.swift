import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Yams

/// Reads scenario files (YAML, and JSON as the YAML subset it is) into `Scenario` values, with every mistake
/// reported as `FILE:LINE:COLUMN: message` from Yams' node marks.
///
/// A plain value holding the file's path (for messages) and the `fire` words parser. Strict: an unknown member or
/// step key, a wrong type, a bad duration, state, callback, outcome, profile or `fire` words is an error — a typo
/// never silently checks nothing.
public struct ScenarioParser: Sendable {
    let path: String
    let fireWords: FireWordsParser

    public init(path: String, fireWords: @escaping FireWordsParser) {
        self.path = path
        self.fireWords = fireWords
    }

    /// Parses `text`, the contents of the file at `path`; `defaultName` names a scenario without `name`.
    public func parse(_ text: String, defaultName: String) throws(ScenarioFileError) -> Scenario {
        if let found = YAMLAliasScan.first(in: text) {
            let what = found.isAnchor ? "anchors (&NAME)" : "aliases (*NAME)"
            throw ScenarioFileError(path: path, line: found.line, column: found.column,
                                    message: "\(what) are not supported in scenario files; write the value out")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw yamlError(error)
        } catch {
            throw ScenarioFileError(path: path, line: 0, column: 0, message: "\(error)")
        }
        guard let root else { throw ScenarioFileError(path: path, line: 0, column: 0, message: "the file is empty") }
        let members = try mapping(
            root, "a scenario", allowed: ["name", "description", "profiles", "knobs", "apps", "steps"])
        var scenario = Scenario(name: defaultName)
        if let node = members["name"] {
            scenario.name = try nonEmptyString(node, "name")
        }
        if let node = members["description"] { scenario.description = try string(node, "description") }
        if let node = members["profiles"] { scenario.profiles = try profiles(node) }
        if let node = members["knobs"] { scenario.knobs = try knobs(node) }
        if let node = members["apps"] { scenario.apps = try sequence(node, "apps").map(app) }
        guard let stepsNode = members["steps"] else { throw error(root, "a scenario needs steps") }
        scenario.steps = try sequence(stepsNode, "steps").map(step)
        return scenario
    }

    /// Every profile's spelling, from `Profile.allCases` (the errors about profiles list them).
    static let profileWords = Profile.allCases.map(\.rawValue).joined(separator: ", ")

    private func profiles(_ node: Node) throws(ScenarioFileError) -> [Profile] {
        var chosen: Set<Profile> = []
        for item in try sequence(node, "profiles") {
            chosen.insert(try profile(item))
        }
        guard !chosen.isEmpty else { throw error(node, "profiles: name at least one of \(Self.profileWords)") }
        return Profile.allCases.filter(chosen.contains)
    }

    func profile(_ node: Node) throws(ScenarioFileError) -> Profile {
        let text = try string(node, "a profile")
        guard let profile = Profile(rawValue: text) else {
            throw error(node, "'\(text)' is not a profile; use one of \(Self.profileWords)")
        }
        return profile
    }

    /// The device knobs: each member a `lifebusd` knob flag's name with one of its words (`DeviceKnobs.flags`).
    private func knobs(_ node: Node) throws(ScenarioFileError) -> DeviceKnobs {
        let members = try mapping(node, "knobs", allowed: DeviceKnobs.flags.map(\.name))
        var knobs = DeviceKnobs()
        for (name, words) in DeviceKnobs.flags {
            guard let value = members[name] else { continue }
            let text = try string(value, name)
            guard knobs.set(name, to: text) else { throw error(value, "\(name): '\(text)' is not one of \(words)") }
        }
        return knobs
    }

    private func app(_ node: Node) throws(ScenarioFileError) -> ScenarioApp {
        let members = try mapping(node, "an app", allowed: ["manifest", "id"])
        switch (members["manifest"], members["id"]) {
        case (let manifest?, nil): return .manifest(path: try nonEmptyString(manifest, "manifest"))
        case (nil, let id?): return .id(try appID(id))
        default: throw error(node, "an app is either {manifest: PATH} or {id: APP-ID}")
        }
    }

    private func yamlError(_ error: YamlError) -> ScenarioFileError {
        let (mark, problem): (Mark?, String) = switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            (mark, problem)
        case .duplicatedKeysInMapping(let duplicates, let context):
            (context.mark, "duplicate member \(duplicates.joined(separator: ", "))")
        default:
            (nil, "\(error)")
        }
        return ScenarioFileError(path: path, line: mark?.line ?? 0, column: mark?.column ?? 0,
                                 message: "not YAML: \(problem)")
    }
}

import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Yams

/// The typed reading of Yams nodes, each mistake placed at the node's mark.
extension ScenarioParser {
    func error(_ node: Node, _ message: String) -> ScenarioFileError {
        ScenarioFileError(path: path, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0, message: message)
    }

    /// A mapping's members by name; a member not in `allowed` is an error at its key, with the closest name.
    func mapping(_ node: Node, _ what: String, allowed: [String]) throws(ScenarioFileError) -> [String: Node] {
        guard case .mapping(let mapping) = node else { throw error(node, "\(what) must be a mapping") }
        var members: [String: Node] = [:]
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else { throw error(key, "a member name must be a plain word") }
            guard allowed.contains(scalar.string) else {
                let closest = SpellingSuggestion.closest(to: scalar.string, among: allowed)
                let hint = closest.map { " (did you mean \($0)?)" }
                throw error(key, "unknown member '\(scalar.string)' in \(what)\(hint ?? ""); "
                    + "known: \(allowed.joined(separator: ", "))")
            }
            members[scalar.string] = value
        }
        return members
    }

    func sequence(_ node: Node, _ what: String) throws(ScenarioFileError) -> [Node] {
        guard case .sequence(let sequence) = node else { throw error(node, "\(what) must be a list") }
        return Array(sequence)
    }

    /// A scalar's text (numbers and booleans too, as written); null and collections are errors.
    func string(_ node: Node, _ what: String) throws(ScenarioFileError) -> String {
        guard case .scalar(let scalar) = node, tagName(node) != .null else {
            throw error(node, "\(what) must be a string")
        }
        return scalar.string
    }

    func nonEmptyString(_ node: Node, _ what: String) throws(ScenarioFileError) -> String {
        let text = try string(node, what)
        guard !text.isEmpty else { throw error(node, "\(what) must not be empty") }
        return text
    }

    func appID(_ node: Node) throws(ScenarioFileError) -> String {
        let text = try string(node, "an app id")
        guard HelloParams.isValidAppID(text) else {
            throw error(node, "'\(text)' is not an app id (1…255 characters from A-Z a-z 0-9 . _ -)")
        }
        return text
    }

    /// `250ms`, `5s`, `1.5s`, `2m` (`DurationText`, as the CLI reads durations).
    func duration(_ node: Node, _ what: String) throws(ScenarioFileError) -> Duration {
        let text = try string(node, what)
        guard let duration = DurationText.parse(text) else {
            throw error(node, "\(what) '\(text)' is not a duration; write e.g. 250ms, 5s, 1.5s, 2m")
        }
        return duration
    }

    /// `suspended` or any of several, `background|suspended`.
    func states(_ node: Node) throws(ScenarioFileError) -> [LifecycleState] {
        let text = try string(node, "state")
        var states: [LifecycleState] = []
        for name in text.split(separator: "|", omittingEmptySubsequences: false) {
            guard let state = LifecycleState(rawValue: String(name)) else {
                let known = LifecycleState.allCases.map(\.rawValue)
                throw error(node, "'\(name)' is not a state; use \(known.joined(separator: ", ")) (or a|b)")
            }
            states.append(state)
        }
        return states
    }

    /// `foregroundActive` or any of several scene states, `background|unattached`.
    func sceneStates(_ node: Node) throws(ScenarioFileError) -> [SceneState] {
        let text = try string(node, "state")
        var states: [SceneState] = []
        for name in text.split(separator: "|", omittingEmptySubsequences: false) {
            guard let state = SceneState(rawValue: String(name)) else {
                let known = SceneState.allCases.map(\.rawValue)
                throw error(node, "'\(name)' is not a scene state; use \(known.joined(separator: ", ")) (or a|b)")
            }
            states.append(state)
        }
        return states
    }

    /// A scene's number: a whole number from 1.
    func sceneID(_ node: Node) throws(ScenarioFileError) -> SceneID {
        let text = try string(node, "scene")
        guard let number = UInt32(text), number >= 1 else {
            throw error(node, "scene '\(text)' is not a scene's number (1, 2, …)")
        }
        return SceneID(number)
    }

    func callback(_ node: Node) throws(ScenarioFileError) -> LifecycleCallback {
        let text = try string(node, "a callback")
        guard let callback = LifecycleCallback(rawValue: text) else {
            let known = LifecycleCallback.allCases.map(\.rawValue)
            let hint = SpellingSuggestion.closest(to: text, among: known).map { " (did you mean \($0)?)" } ?? ""
            throw error(node, "'\(text)' is not a callback\(hint); use \(known.joined(separator: ", "))")
        }
        return callback
    }

    /// The node's resolved tag (`int` for `3`, `str` for `"3"`).
    private func tagName(_ node: Node) -> Tag.Name {
        Tag.Name(rawValue: node.tag.description)
    }

    /// A YAML value as JSON: scalars by their resolved tag (`3` a number, `"3"` a string), mappings in order.
    func json(_ node: Node) throws(ScenarioFileError) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            switch tagName(node) {
            case .null: return .null
            case .bool: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case .int: return node.int.map { .integer(Int64($0)) } ?? .string(scalar.string)
            case .float: return node.float.map(JSONValue.double) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for item in sequence { items.append(try json(item)) }
            return .array(items)
        case .mapping(let mapping):
            var object = JSONObject()
            for (key, value) in mapping {
                object.append(try string(key, "a member name"), try json(value))
            }
            return .object(object)
        case .alias:
            throw error(node, "aliases are not supported in scenario files")
        }
    }
}

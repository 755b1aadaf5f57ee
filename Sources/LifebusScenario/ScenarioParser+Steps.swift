import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Yams

/// Reading one step: a mapping with exactly one key among `ScenarioStep.keys`.
extension ScenarioParser {
    func step(_ node: Node) throws(ScenarioFileError) -> ScenarioStep {
        guard case .mapping(let mapping) = node, mapping.count == 1, let (keyNode, value) = mapping.first else {
            throw error(node, "a step is a mapping with one key: \(ScenarioStep.keys.joined(separator: ", "))")
        }
        let key = try string(keyNode, "a step key")
        switch key {
        case "launch": return .launch(try appID(value))
        case "relaunch": return .relaunch(try appID(value))
        case "fire": return .fire(try fire(value))
        case "advance": return .advance(try duration(value, "advance"))
        case "note": return .note(try string(value, "note"))
        case "wait": return .wait(try wait(value))
        case "kill": return .kill(try kill(value))
        case "expect": return .expect(try expectation(value, inProfile: false))
        default:
            let hint = SpellingSuggestion.closest(to: key, among: ScenarioStep.keys).map { " (did you mean \($0)?)" }
            throw error(keyNode, "unknown step '\(key)'\(hint ?? ""); "
                + "a step is one of \(ScenarioStep.keys.joined(separator: ", "))")
        }
    }

    /// `lifebus fire`'s words, read by the CLI's parser; the options that make no sense in a scenario are refused.
    private func fire(_ node: Node) throws(ScenarioFileError) -> FireParams {
        let text = try string(node, "fire")
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { throw error(node, "fire: name the event, e.g. fire: call --answer") }
        for word in words where Self.refusedFireOptions.contains(where: { word == $0 || word.hasPrefix($0 + "=") }) {
            throw error(node, "fire: \(word) is not for scenarios (a step always waits; use an expect step to check)")
        }
        do throws(FireWordsError) {
            var params = try fireWords(words)
            params.wait = true
            return params
        } catch {
            throw self.error(node, "fire: \(error.message)")
        }
    }

    /// `lifebus fire` options a scenario does not take: output, waiting and checking are the runner's.
    static let refusedFireOptions = ["--expect", "--fail-on", "--no-wait", "--json", "--socket"]

    private func wait(_ node: Node) throws(ScenarioFileError) -> ScenarioWait {
        let members = try mapping(node, "wait", allowed: ["app", "scene", "state", "timeout"])
        guard let app = members["app"], let state = members["state"] else {
            throw error(node, "wait needs app and state, e.g. {app: com.example.App, state: suspended}")
        }
        var wait = if let scene = members["scene"] {
            ScenarioWait(app: try appID(app), scene: try sceneID(scene), states: try sceneStates(state))
        } else {
            ScenarioWait(app: try appID(app), states: try states(state))
        }
        if let timeout = members["timeout"] { wait.timeout = try duration(timeout, "timeout") }
        return wait
    }

    private func kill(_ node: Node) throws(ScenarioFileError) -> ScenarioKill {
        let members = try mapping(node, "kill", allowed: ["app", "signal"])
        guard let app = members["app"] else { throw error(node, "kill needs app, e.g. {app: com.example.App}") }
        var kill = ScenarioKill(app: try appID(app))
        if let signal = members["signal"] {
            let name = try string(signal, "signal").uppercased()
            let bare = name.hasPrefix("SIG") ? String(name.dropFirst(3)) : name
            guard ScenarioKill.signals[bare] != nil else {
                let known = ScenarioKill.signals.keys.sorted().joined(separator: ", ")
                throw error(signal, "'\(name)' is not a signal a scenario sends; use \(known)")
            }
            kill.signal = bare
        }
        return kill
    }
}

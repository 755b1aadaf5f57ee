import LifebusCore
import LifebusExpectation
import LifebusLifecycle
import LifebusProtocol
import Yams

/// Reading an `expect` step and its per-profile overrides.
extension ScenarioParser {
    private static let expectMembers = [
        "app", "scene", "callbacks", "state", "mark", "outcome", "budget", "task", "push", "presented", "noMark",
        "noTask", "profiles",
    ]
    /// The members about the app's background life, which a scene's `expect` does not take.
    private static let appOnlyMembers = ["task", "push", "presented", "noMark", "noTask"]

    /// An `expect` mapping; `ofScene` says whether its `state` names scene states (an override's scene is its step's).
    func expectation(_ node: Node, inProfile: Bool, ofScene: Bool = false) throws(ScenarioFileError)
        -> ScenarioExpectation {
        let allowed = inProfile ? Self.expectMembers.filter { $0 != "profiles" && $0 != "scene" } : Self.expectMembers
        let members = try mapping(node, inProfile ? "a profile's expect" : "expect", allowed: allowed)
        if ofScene || members["scene"] != nil, let member = Self.appOnlyMembers.first(where: { members[$0] != nil }) {
            throw error(members[member] ?? node, "\(member) is about the app: an expect with scene does not take it")
        }
        var expectation = ScenarioExpectation()
        if let app = members["app"] { expectation.app = try appID(app) }
        if let scene = members["scene"] { expectation.scene = try sceneID(scene) }
        let ofScene = ofScene || expectation.scene != nil
        if let callbacks = members["callbacks"] {
            var list: [LifecycleCallback] = []
            for item in try sequence(callbacks, "callbacks") { list.append(try callback(item)) }
            expectation.callbacks = list
        }
        if let state = members["state"] {
            if ofScene {
                expectation.sceneStates = try sceneStates(state)
            } else {
                expectation.states = try states(state)
            }
        }
        if let mark = members["mark"] { expectation.mark = try self.mark(mark) }
        if let outcome = members["outcome"] {
            let text = try string(outcome, "outcome")
            guard let verdict = Verdict(name: text) else {
                throw error(outcome, "'\(text)' is not an outcome; use \(Verdict.names.joined(separator: ", "))")
            }
            expectation.outcome = verdict
        }
        if let budget = members["budget"] { expectation.budget = try self.budget(budget) }
        if let task = members["task"] { expectation.task = try self.task(task) }
        if let push = members["push"] {
            let text = try string(push, "push")
            guard let outcome = ScenarioPushOutcome(rawValue: text) else {
                let names = ScenarioPushOutcome.allCases.map(\.rawValue).joined(separator: ", ")
                throw error(push, "'\(text)' is not a push outcome; use \(names)")
            }
            expectation.push = outcome
        }
        if let presented = members["presented"] { expectation.presented = try presentation(presented) }
        if let noMark = members["noMark"] { expectation.noMark = try nonEmptyString(noMark, "noMark") }
        if let noTask = members["noTask"] { expectation.noTask = try nonEmptyString(noTask, "noTask") }
        if let profiles = members["profiles"] {
            guard case .mapping(let mapping) = profiles else { throw error(profiles, "profiles must be a mapping") }
            for (key, value) in mapping {
                let profile = try profile(key)
                guard expectation.profiles[profile] == nil else { throw error(key, "profile \(profile) given twice") }
                expectation.profiles[profile] = try self.expectation(value, inProfile: true, ofScene: ofScene)
            }
        }
        return expectation
    }

    /// `presented`: `none`, or a list of the options' names (an empty list is none too).
    private func presentation(_ node: Node) throws(ScenarioFileError) -> NotificationPresentationOptions {
        let names = NotificationPresentationOptions.allOptions.map(\.name).joined(separator: ", ")
        if case .scalar = node {
            guard try string(node, "presented") == "none" else {
                throw error(node, "presented must be none or a list of \(names)")
            }
            return []
        }
        var options: NotificationPresentationOptions = []
        for item in try sequence(node, "presented") {
            let name = try string(item, "presented")
            guard let option = NotificationPresentationOptions(name: name) else {
                throw error(item, "'\(name)' is not a presentation option; use \(names)")
            }
            options.insert(option)
        }
        return options
    }

    private func mark(_ node: Node) throws(ScenarioFileError) -> ScenarioMark {
        if case .scalar = node { return ScenarioMark(name: try nonEmptyString(node, "mark")) }
        let members = try mapping(node, "mark", allowed: ["name", "data"])
        guard let name = members["name"] else { throw error(node, "mark needs a name") }
        var mark = ScenarioMark(name: try nonEmptyString(name, "mark name"))
        if let data = members["data"] {
            guard case .object(let object) = try json(data) else { throw error(data, "mark data must be a mapping") }
            mark.data = object
        }
        return mark
    }

    /// `{identifier: com.example.Feed.refresh, outcome: killed}`.
    private func task(_ node: Node) throws(ScenarioFileError) -> ScenarioTask {
        let members = try mapping(node, "task", allowed: ["identifier", "outcome"])
        guard let identifier = members["identifier"], let outcome = members["outcome"] else {
            throw error(node, "task needs identifier and outcome, e.g. {identifier: com.example.Feed.refresh, "
                + "outcome: completed}")
        }
        let text = try string(outcome, "outcome")
        guard let ending = BackgroundTaskOutcome(rawValue: text) else {
            throw error(outcome, "'\(text)' is not a task outcome; use "
                + BackgroundTaskOutcome.names.joined(separator: ", "))
        }
        return ScenarioTask(identifier: try nonEmptyString(identifier, "task identifier"), outcome: ending)
    }

    /// `{callback: didEnterBackground, within: 40%}`; `within` is a share of the budget, 0–100 %.
    private func budget(_ node: Node) throws(ScenarioFileError) -> ScenarioBudget {
        let members = try mapping(node, "budget", allowed: ["callback", "within"])
        guard let callbackNode = members["callback"], let within = members["within"] else {
            throw error(node, "budget needs callback and within, e.g. {callback: didEnterBackground, within: 40%}")
        }
        let text = try string(within, "within")
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let percent = Double(number), percent >= 0, percent <= 100 else {
            throw error(within, "within '\(text)' is not a share of the budget; write e.g. 40%")
        }
        return ScenarioBudget(callback: try callback(callbackNode), percent: percent)
    }
}

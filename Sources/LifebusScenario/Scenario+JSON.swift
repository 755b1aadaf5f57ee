public import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

extension Scenario {
    /// The scenario as a file's contents (`json.jsonText` is a valid `.json` scenario file, and a valid `.yaml` one:
    /// JSON is YAML), in the format of `Protocol/scenarios.md`, so that `ScenarioParser` reads it back equal. What
    /// the fuzzer writes its reproducers with.
    public var json: JSONValue {
        var object: JSONObject = ["name": .string(name)]
        if let description { object.append("description", .string(description)) }
        object.append("profiles", .array(profiles.map { .string($0.rawValue) }))
        if knobs != DeviceKnobs() {
            object.append("knobs", .object(JSONObject(knobs.words.map { ($0.flag, .string($0.word)) })))
        }
        object.append("apps", .array(apps.map { app in
            switch app {
            case .manifest(let path): ["manifest": .string(path)]
            case .id(let id): ["id": .string(id)]
            }
        }))
        object.append("steps", .array(steps.map { .object(JSONObject([($0.key, $0.jsonValue)])) }))
        return .object(object)
    }
}

extension ScenarioStep {
    /// The value under the step's key.
    var jsonValue: JSONValue {
        switch self {
        case .launch(let app), .relaunch(let app): .string(app)
        case .fire(let params): .string(params.words.joined(separator: " "))
        case .advance(let duration): .string(DurationText.format(duration))
        case .wait(let wait):
            wait.json
        case .expect(let expectation): expectation.json
        case .kill(let kill): ["app": .string(kill.app), "signal": .string(kill.signal)]
        case .note(let text): .string(text)
        }
    }
}

extension ScenarioWait {
    var json: JSONValue {
        var object: JSONObject = ["app": .string(app)]
        if let scene { object.append("scene", .integer(Int64(scene.number))) }
        object.append("state", .string(statesText))
        object.append("timeout", .string(DurationText.format(timeout)))
        return .object(object)
    }
}

extension ScenarioExpectation {
    var json: JSONValue {
        var object = JSONObject()
        if let app { object.append("app", .string(app)) }
        if let scene { object.append("scene", .integer(Int64(scene.number))) }
        if let callbacks { object.append("callbacks", .array(callbacks.map { .string($0.rawValue) })) }
        if let states { object.append("state", .string(states.map(\.rawValue).joined(separator: "|"))) }
        if let sceneStates { object.append("state", .string(sceneStates.map(\.rawValue).joined(separator: "|"))) }
        if let mark { object.append("mark", ["name": .string(mark.name), "data": .object(mark.data)]) }
        if let outcome { object.append("outcome", .string(outcome.name)) }
        if let budget {
            object.append("budget", ["callback": .string(budget.callback.rawValue),
                                     "within": .string("\(budget.percent)%")])
        }
        if let task {
            object.append("task", ["identifier": .string(task.identifier), "outcome": .string(task.outcome.rawValue)])
        }
        if let push { object.append("push", .string(push.rawValue)) }
        if let presented { object.append("presented", presented.json) }
        if let noMark { object.append("noMark", .string(noMark)) }
        if let noTask { object.append("noTask", .string(noTask)) }
        if !profiles.isEmpty {
            let ordered = profiles.sorted { $0.key.rawValue < $1.key.rawValue }
            object.append("profiles", .object(JSONObject(ordered.map { ($0.key.rawValue, $0.value.json) })))
        }
        return .object(object)
    }
}

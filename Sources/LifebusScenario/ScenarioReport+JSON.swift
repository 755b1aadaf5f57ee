public import LifebusJSON
import LifebusProtocol

extension ScenarioReport {
    /// `lifebus run --json`: `{"passed":…,"runs":[{file, scenario, profile, passed, seconds, failure?,
    /// steps:[…]}]}`, each step with its number, kind, summary, status, app, message, checks (expected beside
    /// recorded) and the journal entries it caused.
    public static func json(_ runs: [ScenarioFileRun]) -> JSONValue {
        let items: [JSONValue] = runs.flatMap { run in
            run.results.map { result in
                var object: JSONObject = [
                    "file": .string(run.file), "scenario": .string(result.scenario),
                    "profile": .string(result.profile.rawValue), "passed": .bool(result.passed),
                    "seconds": .double(result.seconds),
                ]
                if let failure = result.failure { object.append("failure", .string(failure)) }
                object.append("steps", .array(result.steps.map(json)))
                return .object(object)
            }
        }
        return ["passed": .bool(runs.allSatisfy(\.passed)), "runs": .array(items)]
    }

    static func json(_ step: ScenarioStepResult) -> JSONValue {
        var object: JSONObject = [
            "number": .integer(Int64(step.number)), "kind": .string(step.step.key),
            "summary": .string(step.step.summary), "status": .string(step.status.rawValue),
        ]
        if let app = step.app { object.append("app", .string(app)) }
        if let message = step.message { object.append("message", .string(message)) }
        if !step.checks.isEmpty { object.append("checks", .array(step.checks.map(\.json))) }
        object.append("entries", .array(step.entries.map(\.json)))
        return .object(object)
    }
}

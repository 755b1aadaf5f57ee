public import LifebusJSON
public import LifebusLifecycle
import LifebusProtocol

extension ScenarioReport {
    /// `lifebus run --json`: `{"passed":…,"runs":[{file, scenario, profile, passed, seconds, failure?,
    /// steps:[…], entries:[…]}]}`, each step with its number, kind, summary, status, app, message, checks (expected
    /// beside recorded) and the journal entries it caused; `entries`, the run's whole journal. `lifebus merge` reads
    /// it back (`ScenarioReportReader`); `profiles` and `files`, when given, the selection and the files in their
    /// order (merging shards keeps it). With `diff`, also `losses` (the migration diff's, each with its scenario,
    /// profiles, app, kind and text), and `passed` is false when there is one.
    public static func json(
        _ runs: [ScenarioFileRun], diff: Bool = false, profiles: [Profile]? = nil, files: [String]? = nil
    ) -> JSONValue {
        let items: [JSONValue] = runs.flatMap { run in
            run.results.map { result in
                var object: JSONObject = [
                    "file": .string(run.file), "scenario": .string(result.scenario),
                    "profile": .string(result.profile.rawValue), "passed": .bool(result.passed),
                    "seconds": .double(result.seconds),
                ]
                if let failure = result.failure { object.append("failure", .string(failure)) }
                object.append("steps", .array(result.steps.map(json)))
                object.append("entries", .array(result.entries.map(\.json)))
                return .object(object)
            }
        }
        var report: JSONObject = ["passed": .bool(runs.allSatisfy(\.passed)), "runs": .array(items)]
        if let profiles { report.append("profiles", .array(profiles.map { .string($0.rawValue) })) }
        if let files { report.append("files", .array(files.map(JSONValue.string))) }
        guard diff else { return .object(report) }
        let losses: [JSONValue] = runs.flatMap { run in MigrationDiff.losses(run).map { json($0, of: run) } }
        if !losses.isEmpty { report["passed"] = .bool(false) }
        report.append("losses", .array(losses))
        return .object(report)
    }

    /// One loss of the migration diff: the scenario, the two profiles, the app, what was lost and the line saying it.
    static func json(_ loss: MigrationDiff.Loss, of run: ScenarioFileRun) -> JSONValue {
        var object: JSONObject = [
            "file": .string(run.file), "scenario": .string(run.scenario.name),
            "earlier": .string(loss.earlier.rawValue), "later": .string(loss.later.rawValue),
            "app": loss.app.map(JSONValue.string) ?? .null,
        ]
        switch loss.kind {
        case .callbackNeverCalled(let callback, let marks, let implemented):
            object.append("kind", .string("callbackNeverCalled"))
            object.append("callback", .string(callback.rawValue))
            object.append("implemented", .bool(implemented))
            object.append("marks", .array(marks.map { ["name": .string($0.name), "count": .integer(Int64($0.count))] }))
        case .markLost(let name, let earlier, let later):
            object.append("kind", .string("markLost"))
            object.append("mark", .string(name))
            object.append("earlierCount", .integer(Int64(earlier)))
            object.append("laterCount", .integer(Int64(later)))
        case .runFailed(let reason):
            object.append("kind", .string("runFailed"))
            object.append("reason", .string(reason))
        case .workWhileSuspended(let name, let atMs):
            object.append("kind", .string("workWhileSuspended"))
            object.append("mark", .string(name))
            object.append("atMs", .double(atMs))
        }
        object.append("text", .string(loss.text))
        return .object(object)
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

public import LifebusJSON
import LifebusExpectation
public import LifebusLifecycle
import LifebusProtocol

/// Reads back the runs of reports `lifebus run --json`/`--report` wrote (`ScenarioReport.json`), for `lifebus merge`:
/// each run's result with its steps, checks and journal, joined to its scenario — loaded again from its file, so the
/// merged reports (text, JUnit, `--diff`, coverage) are made by the very code an unsharded run uses. Stateless.
///
/// Runs of one file are kept in one `ScenarioFileRun`, files in the order first met, and each file's results in the
/// order of `profiles` (the selection the shards ran), so N shards' reports merge to the order one run has.
public enum ScenarioReportReader {
    /// Why a report could not be read: the report's name, and what is wrong where.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The runs of `reports` (each a parsed report and its name for errors), files in the order of `files` (then
    /// any other in the order first met); `scenario` loads a file's scenario.
    public static func runs(
        _ reports: [(name: String, report: JSONValue)], profiles: [Profile], files: [String] = [],
        scenario load: (String) throws -> Scenario
    ) throws -> [ScenarioFileRun] {
        var order: [String] = []
        var scenarios: [String: Scenario] = [:]
        var results: [String: [ScenarioResult]] = [:]
        for (name, report) in reports {
            guard let runs = report["runs"]?.arrayValue else {
                throw Failure(description: "\(name): not a lifebus run report (no \"runs\" array)")
            }
            for (index, run) in runs.enumerated() {
                let place = "\(name): runs[\(index)]"
                guard let file = run["file"]?.stringValue else { throw Failure(description: "\(place): no file") }
                if scenarios[file] == nil {
                    scenarios[file] = try load(file)
                    order.append(file)
                }
                results[file, default: []].append(try result(run, scenario: scenarios[file]!, place: place))
            }
        }
        let rank = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        order = order.enumerated().sorted { a, b in
            (rank[a.element] ?? files.count + a.offset) < (rank[b.element] ?? files.count + b.offset)
        }.map(\.element)
        return order.map { file in
            let ordered = results[file, default: []].sorted { a, b in
                (profiles.firstIndex(of: a.profile) ?? Int.max) < (profiles.firstIndex(of: b.profile) ?? Int.max)
            }
            return ScenarioFileRun(file: file, scenario: scenarios[file]!, results: ordered)
        }
    }

    static func result(_ run: JSONValue, scenario: Scenario, place: String) throws -> ScenarioResult {
        guard let name = run["scenario"]?.stringValue, name == scenario.name else {
            throw Failure(description: "\(place): the scenario is not \(scenario.name) (has its file changed?)")
        }
        guard let profile = run["profile"]?.stringValue.flatMap(Profile.init(rawValue:)) else {
            throw Failure(description: "\(place): no known profile")
        }
        guard let seconds = run["seconds"]?.doubleValue, let steps = run["steps"]?.arrayValue else {
            throw Failure(description: "\(place): needs seconds and steps")
        }
        return ScenarioResult(
            scenario: name, profile: profile,
            steps: try steps.enumerated().map { try step($1, of: scenario, place: "\(place).steps[\($0)]") },
            failure: run["failure"]?.stringValue,
            entries: try entries(run["entries"], place: "\(place).entries"),
            seconds: seconds)
    }

    static func step(_ step: JSONValue, of scenario: Scenario, place: String) throws -> ScenarioStepResult {
        guard let number = step["number"]?.int64Value.map(Int.init), number >= 1, number <= scenario.steps.count else {
            throw Failure(description: "\(place): no step number of \(scenario.name) (has its file changed?)")
        }
        guard let status = step["status"]?.stringValue.flatMap(ScenarioStepResult.Status.init(rawValue:)) else {
            throw Failure(description: "\(place): status is not passed, failed or skipped")
        }
        let checks = try (step["checks"]?.arrayValue ?? []).enumerated().map { index, check in
            guard let name = check["check"]?.stringValue, let expected = check["expected"]?.stringValue,
                let recorded = check["recorded"]?.stringValue, let passed = check["passed"]?.boolValue
            else { throw Failure(description: "\(place).checks[\(index)]: needs check, expected, recorded, passed") }
            return Expectation.Result(check: name, expected: expected, recorded: recorded, passed: passed)
        }
        return ScenarioStepResult(
            number: number, step: scenario.steps[number - 1], status: status, app: step["app"]?.stringValue,
            checks: checks, message: step["message"]?.stringValue,
            entries: try entries(step["entries"], place: "\(place).entries"))
    }

    static func entries(_ value: JSONValue?, place: String) throws -> [JournalEntry] {
        guard let items = value?.arrayValue else { throw Failure(description: "\(place): missing") }
        return try items.enumerated().map { index, item in
            do throws(RPCError) {
                return try JournalEntry(json: item)
            } catch {
                throw Failure(description: "\(place)[\(index)]: \(error.message)")
            }
        }
    }
}

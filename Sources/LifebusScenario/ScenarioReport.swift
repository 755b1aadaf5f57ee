public import LifebusProtocol
import LifebusExpectation
import LifebusTimeline

/// The readable report of `lifebus run`: a line per scenario × profile (PASS or FAIL), under a failure the failed
/// step with each check's expected and recorded values side by side and the failing app's timeline, then where the
/// profiles differ, then a total. Stateless and pure: runs in, text out.
public enum ScenarioReport {
    public static func text(_ runs: [ScenarioFileRun]) -> String {
        let lines = runs.flatMap { run in run.results.flatMap { describe($0, file: run.file) } }
        return lines.map { $0 + "\n" }.joined() + summary(runs)
    }

    /// What follows the results: where each scenario's profiles differ, and the total.
    public static func summary(_ runs: [ScenarioFileRun]) -> String {
        var lines = runs.filter { $0.results.count > 1 }.flatMap(ProfileDifferences.lines)
        let results = runs.flatMap(\.results)
        let failed = results.filter { !$0.passed }.count
        let files = "\(runs.count) scenario file\(runs.count == 1 ? "" : "s")"
        let total = "\(results.count) run\(results.count == 1 ? "" : "s") (scenario × profile)"
        lines.append("\(files), \(total): \(results.count - failed) passed, \(failed) failed")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One result: its PASS/FAIL line and, for a failure, what went wrong.
    public static func describe(_ result: ScenarioResult, file: String) -> [String] {
        let head = "\(result.passed ? "PASS" : "FAIL")  \(result.scenario) [\(result.profile.rawValue)]  \(file)  "
            + "\(seconds(result.seconds)) s"
        guard !result.passed else { return [head] }
        return [head] + failureLines(result).map { "  " + $0 }
    }

    /// What went wrong in a failed result: the failed step and its checks, then the app's timeline.
    public static func failureLines(_ result: ScenarioResult) -> [String] {
        if let failure = result.failure { return [failure] }
        guard let step = result.failedStep else { return [] }
        var lines = ["step \(step.number) \(step.step.summary): \(step.message ?? "failed")"]
        lines += checkLines(step.checks).map { "  " + $0 }
        if let app = step.app {
            lines.append("timeline of \(app):")
            lines += timelineText(result.entries, app: app).split(separator: "\n").map { "  " + $0 }
        }
        return lines
    }

    /// The failed checks in one line, each `CHECK: expected E, recorded R` (`mark restored: expected value=hello,
    /// recorded value=""`), joined by `; `; `nil` when every check passed.
    static func failedChecksText(_ checks: [Expectation.Result]) -> String? {
        let failed = checks.filter { !$0.passed }
        guard !failed.isEmpty else { return nil }
        return failed.map { "\($0.check): expected \($0.expected), recorded \($0.recorded)" }.joined(separator: "; ")
    }

    /// Each check with expected above recorded, aligned (as `lifebus expect` prints them).
    static func checkLines(_ checks: [Expectation.Result]) -> [String] {
        let width = checks.map(\.check.count).max() ?? 0
        return checks.flatMap { check in
            let name = check.check + String(repeating: " ", count: width - check.check.count)
            let pad = String(repeating: " ", count: width + 5)
            return ["\(check.passed ? "ok  " : "FAIL") \(name)  expected: \(check.expected)",
                    "\(pad)  recorded: \(check.recorded)"]
        }
    }

    /// The app's lane of the run's timeline, as `TimelineText` writes it.
    public static func timelineText(_ entries: [JournalEntry], app: String) -> String {
        TimelineText.render(Timeline(entries: entries.filter { $0.app == nil || $0.app == app }, apps: [app]))
    }

    static func seconds(_ value: Double) -> String {
        let tenths = (value * 100).rounded() / 100
        return String(tenths)
    }
}

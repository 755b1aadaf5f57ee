import LifebusProtocol
import LifebusTimeline

/// `lifebus run --junit FILE`: JUnit XML as Jenkins, GitLab and GitHub test tabs read it (checked against Jenkins'
/// `junit-10.xsd`): one `testsuite` per scenario file, one `testcase` per scenario × profile named
/// `scenario [profile]` with the file as its class, a `failure` whose message is the failed step and whose text is
/// its expected and recorded values side by side, and the run's timeline as `system-out`; with `diff`, the
/// migration diff's suites after them (`MigrationReport`: a failed `testcase` per loss). Stateless and pure.
public enum JUnitReport {
    public static func xml(_ runs: [ScenarioFileRun], diff: Bool = false) -> String {
        let all = runs.flatMap(\.results)
        let diffSuites = diff ? MigrationReport.junitSuites(runs) : MigrationReport.JUnitSuites()
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites name=\"lifebus run\" tests=\"\(all.count + diffSuites.tests)\" "
                + "failures=\"\(all.filter { !$0.passed }.count + diffSuites.failures)\" "
                + "errors=\"0\" time=\"\(time(all.map(\.seconds).reduce(0, +)))\">",
        ]
        for run in runs {
            let failures = run.results.filter { !$0.passed }.count
            lines.append("  <testsuite name=\"\(XMLText.escape(run.file))\" tests=\"\(run.results.count)\" "
                + "failures=\"\(failures)\" errors=\"0\" skipped=\"0\" "
                + "time=\"\(time(run.results.map(\.seconds).reduce(0, +)))\">")
            for result in run.results {
                lines += testcase(result, file: run.file).map { "    " + $0 }
            }
            lines.append("  </testsuite>")
        }
        lines += diffSuites.lines
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func testcase(_ result: ScenarioResult, file: String) -> [String] {
        var lines = ["<testcase name=\"\(XMLText.escape("\(result.scenario) [\(result.profile.rawValue)]"))\" "
            + "classname=\"\(XMLText.escape(file))\" time=\"\(time(result.seconds))\">"]
        if !result.passed {
            let message = result.failure ?? result.failedStep.map { step in
                "step \(step.number) \(step.step.summary): \(step.message ?? "failed")"
            } ?? "failed"
            let diff = result.failedStep.map { ScenarioReport.checkLines($0.checks).joined(separator: "\n") } ?? ""
            lines.append("  <failure message=\"\(XMLText.escape(message))\" type=\"lifebus.ScenarioFailed\">"
                + XMLText.escape(diff.isEmpty ? message : message + "\n" + diff) + "</failure>")
        }
        let timeline = TimelineText.render(Timeline(entries: result.entries))
        lines.append("  <system-out>" + XMLText.escape(timeline) + "</system-out>")
        lines.append("</testcase>")
        return lines
    }

    /// Seconds with three decimals.
    static func time(_ seconds: Double) -> String {
        let millis = Int64((seconds * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

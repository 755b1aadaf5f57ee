import LifebusLifecycle
import LifebusTimeline

/// How `lifebus run --diff` reports `MigrationDiff`'s losses: as text (a heading per scenario and pair of profiles,
/// a line per loss) and as JUnit (one `testsuite` per scenario file, one `testcase` per loss — failed — or, for a pair
/// without any, one passed `testcase` saying so). Stateless and pure.
public enum MigrationReport {
    /// The text report of every scenario run under two profiles or more, then a total line.
    public static func lines(_ runs: [ScenarioFileRun]) -> [String] {
        var lines: [String] = []
        var total = 0
        for run in runs {
            for (earlier, later) in MigrationDiff.pairs(run) {
                let losses = MigrationDiff.losses(from: earlier, to: later)
                total += losses.count
                let pair = "\(earlier.profile.rawValue) → \(later.profile.rawValue)"
                guard !losses.isEmpty else {
                    lines.append("no loss in \(run.scenario.name) (\(run.file)), \(pair)")
                    continue
                }
                lines.append("LOST  \(run.scenario.name) (\(run.file)), \(pair):")
                lines += losses.map { "  " + $0.text }
            }
        }
        let compared = runs.filter { $0.results.count > 1 }.count
        lines.append("migration diff: \(total) loss\(total == 1 ? "" : "es") in \(compared) scenario"
            + "\(compared == 1 ? "" : "s") compared")
        return lines
    }

    /// Whether any loss was found (`lifebus run --diff` then exits 1).
    public static func hasLosses(_ runs: [ScenarioFileRun]) -> Bool {
        runs.contains { !MigrationDiff.losses($0).isEmpty }
    }

    /// The diff's JUnit `testsuite` elements (one per scenario file compared, each line indented for a place inside
    /// `testsuites`) and how many test cases they hold and how many failed.
    struct JUnitSuites {
        var lines: [String] = []
        var tests = 0
        var failures = 0
    }

    static func junitSuites(_ runs: [ScenarioFileRun]) -> JUnitSuites {
        var suites = JUnitSuites()
        for run in runs where run.results.count > 1 {
            var cases: [String] = []
            var failures = 0
            for (earlier, later) in MigrationDiff.pairs(run) {
                let pair = "\(run.scenario.name) [\(earlier.profile.rawValue) → \(later.profile.rawValue)]"
                let losses = MigrationDiff.losses(from: earlier, to: later)
                if losses.isEmpty {
                    cases.append("<testcase name=\"\(XMLText.escape(pair + " no loss"))\" "
                        + "classname=\"\(XMLText.escape(run.file + " --diff"))\" time=\"0.000\"/>")
                }
                for loss in losses {
                    failures += 1
                    let text = XMLText.escape(loss.text)
                    cases.append("<testcase name=\"\(XMLText.escape(pair + " " + loss.subject))\" "
                        + "classname=\"\(XMLText.escape(run.file + " --diff"))\" time=\"0.000\">")
                    cases.append("  <failure message=\"\(text)\" type=\"lifebus.MigrationLoss\">\(text)</failure>")
                    cases.append("</testcase>")
                }
            }
            let tests = cases.filter { $0.hasPrefix("<testcase") }.count
            suites.tests += tests
            suites.failures += failures
            suites.lines.append("  <testsuite name=\"\(XMLText.escape(run.file + " --diff"))\" tests=\"\(tests)\" "
                + "failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"0.000\">")
            suites.lines += cases.map { "    " + $0 }
            suites.lines.append("  </testsuite>")
        }
        return suites
    }
}

extension MigrationDiff.Loss {
    /// What the loss is about, for a test case's name: the app and the callback or mark, or the run.
    var subject: String {
        let what = switch kind {
        case .callbackNeverCalled(let callback, _, _): callback.rawValue
        case .markLost(let name, _, _): "mark " + name
        case .runFailed: "run"
        case .workWhileSuspended(let name, _): "mark " + name + " while suspended"
        }
        return app.map { "\($0) \(what)" } ?? what
    }
}

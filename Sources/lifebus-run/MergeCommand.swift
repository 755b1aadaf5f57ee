import ArgumentParser
import Glibc
import LifebusCLI
import LifebusCoverage
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario

/// `lifebus merge REPORT…` (`lifebus` becomes `lifebus-run merge` for it): joins the JSON reports of `lifebus run
/// --shard K/N --report FILE` and of fuzz campaigns (`--seeds A..B --report FILE`) into one report, one JUnit file,
/// one coverage table and one exit status — those an unsharded run gives. The scenarios are loaded again from their
/// files (as the reports name them, from the folder merge runs in), so every report is made by the code an unsharded
/// run uses.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifebus merge",
        abstract: "Join the reports of sharded runs (lifebus run --shard K/N --report FILE) into one verdict.",
        discussion: """
            Reads each REPORT (lifebus run --report or --json; fuzz campaigns' --report), loads each scenario \
            again from its file, and reports as one run would: PASS/FAIL per scenario × profile in the order the \
            shards' profiles were selected, where the profiles differ, and the total; with --diff the migration \
            diff; the fuzz sessions that broke, with their reproducers. Exit status: 0 every run passed (and \
            nothing was lost, nothing broke), 1 one failed, 2 usage, 4 a report or scenario file is bad.
            """
    )

    @Argument(help: "The shards' JSON reports.") var reports: [String] = []
    @Option(help: ArgumentHelp("Also write the merged report as JUnit XML to this file.", valueName: "file"))
    var junit: String?
    @Flag(help: "Print the merged report as JSON instead of text.") var json = false
    @Option(help: ArgumentHelp(
        "Also write the merged report as JSON to this file (the next --shard run's --timings).", valueName: "file"))
    var report: String?
    @Flag(help: "Report what stopped happening from each profile to the next (the migration diff).") var diff = false
    @Flag(help: "Also print which rows of the lifecycle table the runs' journals exercised (lifebus coverage).")
    var coverage = false

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("name at least one report") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        var scenarioReports: [(name: String, report: JSONValue)] = []
        var fuzz: [JSONValue] = []
        var profiles: [Profile]?
        var files: [String]?
        for path in reports {
            let report = try Self.read(path)
            if let sessions = report["fuzz"]?.arrayValue {
                fuzz += sessions
                continue
            }
            let selected = report["profiles"]?.arrayValue?.compactMap { $0.stringValue.flatMap(Profile.init) }
            if let selected, let profiles, selected != profiles {
                StandardError.writeLine("lifebus: \(path): its shards selected other profiles than \(reports[0])'s")
                throw CLIExitStatus.refused
            }
            profiles = profiles ?? selected
            files = files ?? report["files"]?.arrayValue?.compactMap(\.stringValue)
            scenarioReports.append((path, report))
        }
        let order = profiles ?? Profile.allCases
        let runs: [ScenarioFileRun]
        do {
            runs = try ScenarioReportReader.runs(scenarioReports, profiles: order, files: files ?? []) { file in
                try ScenarioFile.load(file, fireWords: RunCommand.fireWords)
            }
        } catch {
            StandardError.writeLine("lifebus: \(error)")
            throw CLIExitStatus.refused
        }
        let broke = fuzz.filter { $0["outcome"]?.stringValue != "held" }
        var merged = ScenarioReport.json(runs, diff: diff, profiles: order, files: files).objectValue ?? [:]
        if !fuzz.isEmpty {
            merged.append("fuzz", .array(fuzz))
            if !broke.isEmpty { merged["passed"] = .bool(false) }
        }
        if let report {
            try OutputFile.write(JSONValue.object(merged).jsonText + "\n", to: report)
        }
        if json {
            print(JSONValue.object(merged).jsonText)
        } else {
            for run in runs {
                run.results.forEach { ScenarioReport.describe($0, file: run.file).forEach { print($0) } }
            }
            print(ScenarioReport.summary(runs), terminator: "")
            if diff { MigrationReport.lines(runs).forEach { print($0) } }
            if !fuzz.isEmpty { Self.fuzzLines(fuzz, broke: broke).forEach { print($0) } }
            if coverage {
                print("coverage of the lifecycle table by the runs' journals:")
                print(LifecycleCoverage(entries: runs.flatMap { $0.results.flatMap(\.entries) }).text)
            }
        }
        if let junit {
            try OutputFile.write(JUnitReport.xml(runs, diff: diff), to: junit)
        }
        if !runs.allSatisfy(\.passed) || !broke.isEmpty || (diff && MigrationReport.hasLosses(runs)) {
            throw CLIExitStatus.conditionNotMet
        }
    }

    private static func read(_ path: String) throws -> JSONValue {
        do throws(RunReportFile.Failure) {
            return try RunReportFile.read(path)
        } catch {
            StandardError.writeLine("lifebus: \(error)")
            throw CLIExitStatus.refused
        }
    }

    /// The fuzz sessions: how many, and each that did not hold with its reproducer or why it stopped.
    private static func fuzzLines(_ fuzz: [JSONValue], broke: [JSONValue]) -> [String] {
        var lines = ["fuzz: \(fuzz.count) session\(fuzz.count == 1 ? "" : "s") (seed × profile), "
            + "\(fuzz.count - broke.count) held, \(broke.count) did not"]
        for session in broke {
            let seed = session["seed"]?.stringValue ?? "?"
            let profile = session["profile"]?.stringValue ?? "?"
            if let reproducer = session["reproducer"]?.stringValue {
                lines.append("  seed \(seed) under \(profile) broke an invariant: lifebus run \(reproducer)")
            } else {
                lines.append("  seed \(seed) under \(profile) stopped: \(session["reason"]?.stringValue ?? "?")")
            }
        }
        return lines
    }
}

import ArgumentParser
import Glibc
import LifebusCLI
import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario

/// `lifebus run FILE…` (`lifebus` becomes this program for it): runs scenario files under one or every profile and
/// reports, as text, JSON or JUnit XML.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifebus run",
        abstract: "Run scenario files (YAML or JSON) under one or every profile; report, optionally as JUnit XML.",
        discussion: """
            Each scenario runs under each selected profile it lists (--profile: one, several in the order given \
            as ios7,ios27, or all; default all), each time on a private lifebusd with the manual clock on a \
            temporary socket, its apps with a fresh empty state folder (LIFEBUS_STATE_DIR), stopped afterwards \
            (given --scene-order-seed N, the seed of the scene orders Apple \
            does not document, which its run record names); with --socket, on \
            that broker (reset before each scenario) under its profile. The format: Protocol/scenarios.md. \
            With --diff, each profile's run is compared with the previous one's and what stopped happening is \
            reported (the migration diff: marks and the callbacks they were made in, runs that began to fail). \
            Exit status: 0 every run passed (and, with --diff, nothing was lost), 1 a run failed or a loss was \
            found, 2 usage, 3 the broker at --socket is unreachable, 4 a scenario file is bad (FILE:LINE:COLUMN: \
            why; nothing runs).
            """
    )

    @Argument(help: "Scenario files (.yaml, .yml, .json).") var files: [String] = []
    @Option(help: ArgumentHelp("One profile, several in order (ios7,ios27), or all of them.", valueName: "profile"))
    var profile = ProfileSelection.all
    @Flag(help: "Report what stopped happening from each profile to the next (the migration diff).") var diff = false
    @Option(help: ArgumentHelp("Also write the report as JUnit XML to this file.", valueName: "file"))
    var junit: String?
    @Flag(help: "Print the report as JSON (with each step's journal entries) instead of text.") var json = false
    @Option(help: "Run on the broker at this socket instead of private ones.") var socket: String?
    @Option(help: ArgumentHelp(
        "Take the scenarios' relative manifest paths from this folder instead of each file's own.", valueName: "dir"))
    var directory: String?
    @Option(help: ArgumentHelp(
        "Also write the report as JSON to this file (what lifebus merge joins).", valueName: "file"))
    var report: String?
    @Option(help: ArgumentHelp(
        "Run only this shard's scenario × profile runs: K of N, a stable split (lifebus merge joins the reports).",
        valueName: "K/N"))
    var shard: ShardSelection?
    @Option(help: ArgumentHelp(
        "With --shard: balance by each run's seconds in this earlier report (--report or lifebus merge --json).",
        valueName: "file"))
    var timings: String?
    @Option(help: ArgumentHelp(
        "The seed of the scene orders Apple does not document, for the brokers lifebus run starts "
            + "(lifebusd --scene-order-seed; default 0).", valueName: "n"))
    var sceneOrderSeed: UInt64?
    @OptionGroup(title: "Device knobs (Protocol/lifecycle.md's knob table)") var knobs: BrokerKnobOptions
    @OptionGroup(title: "The interruption fuzzer") var random: RandomRunOptions

    func validate() throws {
        if let sceneOrderSeed, sceneOrderSeed > UInt64(Int64.max) {
            throw ValidationError("--scene-order-seed must be an integer from 0 to 2^63-1")
        }
        guard socket == nil || sceneOrderSeed == nil else {
            throw ValidationError("--scene-order-seed is for the brokers lifebus run starts: not with --socket")
        }
        guard socket == nil || knobs.isEmpty else {
            throw ValidationError("the device knobs are for the brokers lifebus run starts: not with --socket")
        }
        guard random.seed == nil, random.seeds == nil else {
            return try random.validate(files: files, socket: socket, json: json)
        }
        guard !files.isEmpty else { throw ValidationError("name at least one scenario file") }
        guard shard != nil || timings == nil else { throw ValidationError("--timings goes with --shard K/N") }
        guard shard == nil || !diff else {
            throw ValidationError("--diff compares profiles another shard may run: pass --diff to lifebus merge")
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        if let seeds = random.seedRange {
            return try RandomRun.run(
                random, seeds: seeds, profiles: profile.profiles, report: report, sceneOrderSeed: sceneOrderSeed,
                knobs: knobs.knobs)
        }
        var scenarios: [(file: String, scenario: Scenario)] = []
        var bad = false
        for file in files {
            do throws(ScenarioFileError) {
                scenarios.append((file, try ScenarioFile.load(file, fireWords: Self.fireWords)))
            } catch {
                StandardError.writeLine("lifebus: \(error)")
                bad = true
            }
        }
        if bad { throw CLIExitStatus.refused }
        let runs = try runAll(scenarios, selected: profile.profiles)
        if json || report != nil {
            let text = ScenarioReport.json(runs, diff: diff, profiles: profile.profiles, files: files).jsonText
            if let report { try OutputFile.write(text + "\n", to: report) }
            if json { print(text) }
        }
        if !json {
            print(ScenarioReport.summary(runs), terminator: "")
            if diff { MigrationReport.lines(runs).forEach { print($0) } }
        }
        if let junit {
            try OutputFile.write(JUnitReport.xml(runs, diff: diff), to: junit)
        }
        if !runs.allSatisfy(\.passed) || (diff && MigrationReport.hasLosses(runs)) {
            throw CLIExitStatus.conditionNotMet
        }
    }

    /// Runs every scenario under its profiles, printing each result's report as it comes (text only).
    private func runAll(_ scenarios: [(file: String, scenario: Scenario)], selected: [Profile]) throws
        -> [ScenarioFileRun] {
        var broker = ScenarioRunner.Broker.own
        var profiles = selected
        if let socket {
            switch ScenarioRunner.profile(ofBrokerAt: socket) {
            case .success(let running):
                broker = .running(socket: socket)
                profiles = selected.filter { $0 == running }
            case .failure(let error):
                StandardError.writeLine("lifebus: \(error.message)")
                throw CLIExitStatus.unreachable
            }
        }
        let mine = try shardItems(scenarios, profiles: profiles)
        return scenarios.compactMap { file, scenario in
            let runner = ScenarioRunner(broker: broker, directory: directory ?? ScenarioFile.directory(of: file),
                                        sceneOrderSeed: sceneOrderSeed, knobs: knobs.knobs)
            let selected = profiles.filter(scenario.profiles.contains)
            let owned = mine.map { items in
                selected.filter { items.contains(ShardItem(file: file, scenario: scenario.name, profile: $0)) }
            }
            if let owned, owned.isEmpty { return nil }  // another shard's
            let results = (owned ?? selected).map { profile in
                let result = runner.run(scenario, profile: profile)
                if !json { ScenarioReport.describe(result, file: file).forEach { print($0) } }
                return result
            }
            if results.isEmpty, !json {
                print("SKIP  \(scenario.name)  \(file)  (meant for "
                    + "\(scenario.profiles.map(\.rawValue).joined(separator: ", ")); none of them selected)")
            }
            return ScenarioFileRun(file: file, scenario: scenario, results: results)
        }
    }

    /// With `--shard`, the scenario × profile runs this shard owns (`ShardPlan`), after saying how many; else `nil`.
    private func shardItems(_ scenarios: [(file: String, scenario: Scenario)], profiles: [Profile]) throws
        -> Set<ShardItem>? {
        guard let shard else { return nil }
        let items = scenarios.flatMap { file, scenario in
            profiles.filter(scenario.profiles.contains).map {
                ShardItem(file: file, scenario: scenario.name, profile: $0)
            }
        }
        var recorded: RunTimings?
        if let timings {
            do {
                recorded = try RunTimings(report: try RunReportFile.read(timings))
            } catch let failure as RunReportFile.Failure {
                StandardError.writeLine("lifebus: --timings \(failure)")
                throw CLIExitStatus.usage
            } catch {
                StandardError.writeLine("lifebus: --timings \(timings): \(error)")
                throw CLIExitStatus.usage
            }
        }
        let mine = ShardPlan.items(items, in: shard, timings: recorded)
        if !json { print("shard \(shard.text): \(mine.count) of \(items.count) runs (scenario × profile)") }
        return Set(mine)
    }

    /// `lifebus fire`'s own parser, for the scenario files' `fire` steps.
    static let fireWords: FireWordsParser = { words throws(FireWordsError) in
        switch FireWords.parse(words) {
        case .success(let params): return params
        case .failure(let refusal): throw FireWordsError(refusal.message)
        }
    }
}

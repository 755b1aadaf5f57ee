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
            as ios7,ios27, or all; default all), each time on a private lifebusd with the manual clock on a temporary socket, stopped afterwards; with --socket, on \
            that broker (reset before each scenario) under its profile. The format: Protocol/scenarios.md. \
            With --diff, each profile's run is compared with the previous one's and what stopped happening is \
            reported (the migration diff: marks and the callbacks they were made in, runs that began to fail). \
            Exit status: 0 every run passed (and, with --diff, nothing was lost), 1 a run failed or a loss was found, 2 usage, 3 the broker at --socket is unreachable, \
            4 a scenario file is bad (FILE:LINE:COLUMN: why; nothing runs).
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
    @OptionGroup(title: "The interruption fuzzer") var random: RandomRunOptions

    func validate() throws {
        guard random.seed == nil else { return try random.validate(files: files, socket: socket, json: json) }
        guard !files.isEmpty else { throw ValidationError("name at least one scenario file") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        if let seed = random.seed { return try RandomRun.run(random, seed: seed, profiles: profile.profiles) }
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
        if json {
            print(ScenarioReport.json(runs, diff: diff).jsonText)
        } else {
            print(ScenarioReport.summary(runs), terminator: "")
            if diff { MigrationReport.lines(runs).forEach { print($0) } }
        }
        if let junit {
            do throws(TextFile.Failure) {
                try TextFile.write(JUnitReport.xml(runs, diff: diff), to: junit)
            } catch {
                StandardError.writeLine("lifebus: \(error)")
                throw CLIExitStatus.conditionNotMet
            }
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
        return scenarios.map { file, scenario in
            let runner = ScenarioRunner(broker: broker, directory: ScenarioFile.directory(of: file))
            let results = profiles.filter(scenario.profiles.contains).map { profile in
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

    /// `lifebus fire`'s own parser, for the scenario files' `fire` steps.
    static let fireWords: FireWordsParser = { words throws(FireWordsError) in
        switch FireWords.parse(words) {
        case .success(let params): return params
        case .failure(let refusal): throw FireWordsError(refusal.message)
        }
    }
}

import Glibc
import LifebusIO
import LifebusLifecycle
import Testing

/// `lifebus run` end to end: the real CLI runs the scenario files on private manual-clock brokers it starts, with the
/// example apps installed from their manifests; the reports are read as people and CI systems read them.
@Suite struct ScenarioRunTests {
    /// Runs `lifebus ARGUMENTS` to its end, however long a loaded machine makes every scenario under every profile.
    /// Each run gives its apps a fresh state folder of its own (with `--socket`, the apps are the broker's).
    static func lifebus(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let child = try ChildProcess("lifebus", arguments)
        let out = child.stdout.readAll(timeout: .seconds(600))
        let err = child.stderr.readAll(timeout: .seconds(5))
        return (child.wait(), out, err)
    }

    static let root = TranscriptReplayTests.repositoryRoot
    static let junitSchema = "\(root)/Tests/Fixtures/junit/junit-10.xsd"

    /// Every file in `scenarios/`, sorted.
    static var scenarioFiles: [String] {
        fileNames(in: "\(root)/scenarios", endingWith: ".yaml").sorted().map { "\(root)/scenarios/\($0)" }
    }

    /// A fresh path for a JUnit report, in a folder of its own (`remove(_:)` removes both).
    static func reportPath() throws -> String {
        var template = Array("/tmp/lifebus-junit-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FixtureError("mkdtemp failed") }
        return String(cString: made) + "/report.xml"
    }

    static func remove(_ report: String) {
        FolderEntries.removeTree(String(report.dropLast("/report.xml".count)))
    }

    /// How many profiles a scenario file runs under with `--profile all`: those its one-line `profiles: [a, b]`
    /// lists, else every profile.
    static func profileCount(of file: String) throws -> Int {
        guard let text = readFile(file) else { throw FixtureError("cannot read \(file)") }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("profiles: [") }) else {
            return Profile.allCases.count
        }
        return line.split(separator: ",").count
    }

    @Test func everyScenarioPassesUnderEveryProfileAndTheJUnitReportIsValid() throws {
        let files = Self.scenarioFiles
        #expect(files.count >= 12)
        let junit = try Self.reportPath()
        defer { Self.remove(junit) }
        let run = try Self.lifebus(["run"] + files + ["--profile", "all", "--junit", junit])
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        let runs = try files.map { try Self.profileCount(of: $0) }.reduce(0, +)
        #expect(runs > files.count * 5)
        #expect(run.out.contains("\(files.count) scenario files, \(runs) runs (scenario × profile): "
            + "\(runs) passed, 0 failed"))
        // The OS-generation diff: a call answered sends iOS 3's app away for good, iOS 4's and 7's to the background.
        #expect(run.out.contains("profiles differ in A call answered while the app is in front"))
        let check = try HelperScripts.python("check_junit.py", [junit, Self.junitSchema])
        #expect(check.status == 0, "\(check.out)\n\(check.err)")
        let cases = check.out.split(separator: "\n").filter { $0.contains(" | ") }
        #expect(cases.count == runs)
        #expect(cases.allSatisfy { $0.hasSuffix("| passed | ") })
        #expect(check.out.contains("| A call declined [ios7] | \(Self.root)/scenarios/call-declined.yaml | passed"))
    }

    @Test func aFailingScenarioReportsExpectedBesideRecordedTheTimelineAndAJUnitFailure() throws {
        let file = "\(Self.root)/Tests/Fixtures/scenarios/must-fail.yaml"
        let junit = try Self.reportPath()
        defer { Self.remove(junit) }
        let run = try Self.lifebus(["run", file, "--junit", junit])
        #expect(run.status == 1, "\(run.out)\n\(run.err)")
        let expected = """
            FAIL  must fail [ios7]  \(file)
            """
        #expect(run.out.contains(expected))
        #expect(run.out.contains("""
              step 3 expect: callbacks: expected didFinishLaunching, didBecomeActive, willResignActive, \
            didEnterBackground, recorded didFinishLaunching, didBecomeActive, willResignActive; state: expected \
            background|suspended, recorded inactive
                FAIL callbacks  expected: didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground
                                recorded: didFinishLaunching, didBecomeActive, willResignActive
                FAIL state      expected: background|suspended
                                recorded: inactive
              timeline of com.example.DeepThoughts:
            """))
        #expect(run.out.contains("willResignActive active → inactive: 0 ms of 10000 ms budget, ok (call)"))
        #expect(run.out.contains("1 scenario file, 1 run (scenario × profile): 0 passed, 1 failed"))
        #expect(!run.out.contains("never reached"))
        let check = try HelperScripts.python("check_junit.py", [junit, Self.junitSchema])
        #expect(check.status == 0, "\(check.out)\n\(check.err)")
        #expect(check.out.contains("| must fail [ios7] | \(file) | failed | step 3 expect: callbacks: expected "
            + "didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground, recorded didFinishLaunching, "
            + "didBecomeActive, willResignActive; state: expected background|suspended, recorded inactive"))
        #expect(check.out.contains("recorded: didFinishLaunching, didBecomeActive, willResignActive\\n"))
    }

    @Test func aBadFileIsRefusedWithItsLineAndColumnAndNothingRuns() throws {
        let file = "\(Self.root)/Tests/Fixtures/scenarios/bad-step.yaml"
        let run = try Self.lifebus(["run", file, "\(Self.root)/scenarios/call-declined.yaml"])
        #expect(run.status == 4)
        #expect(run.err.contains("\(file):6:5: unknown step 'fyre' (did you mean fire?)"))
        #expect(run.out.isEmpty)
    }

    @Test func onARunningBrokerEachScenarioStartsFromAResetDeviceUnderItsProfile() throws {
        let broker = try BrokerFixture(arguments: ["--clock", "manual", "--profile", "ios4"])
        let files = ["sms-reply", "home-relaunch", "sms-reply"].map { "\(Self.root)/scenarios/\($0).yaml" }
        let run = try Self.lifebus(["run", "--socket", broker.socketPath] + files)
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("PASS  An SMS answered with Reply [ios4]"))
        #expect(!run.out.contains("[ios7]"))
        #expect(run.out.contains("3 scenario files, 3 runs (scenario × profile): 3 passed, 0 failed"))
        #expect(broker.stop() == 0)
    }

    @Test func noBrokerAtTheSocketGivenIsExitThree() throws {
        let run = try Self.lifebus(["run", "--socket", "/tmp/lifebus-no-such-broker.sock",
                                    "\(Self.root)/scenarios/call-declined.yaml"])
        #expect(run.status == 3, "\(run.out)\n\(run.err)")
        #expect(run.err.contains("cannot reach the broker at /tmp/lifebus-no-such-broker.sock"))
    }

    @Test func theJSONReportCarriesEachStepsJournalEntries() throws {
        let run = try Self.lifebus(["run", "\(Self.root)/scenarios/call-declined.yaml", "--profile", "ios4", "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix(#"{"passed":true,"runs":[{"file":"#))
        #expect(run.out.contains(#""profile":"ios4""#))
        #expect(run.out.contains(#""summary":"fire call --decline","status":"passed""#))
        #expect(run.out.contains(#""callback":"didBecomeActive""#))
        #expect(!run.out.contains(#""profile":"ios7""#))
    }

    /// The app's own members (`task`, `push`, `presented`, `noMark`, `noTask`) on a scene's `expect`, or in one of its
    /// profiles' overrides: the schema refuses them as `lifebus run`'s parser does, and an app's `expect` keeps them.
    @Test func theSchemaAndTheParserRefuseTheAppsMembersOnASceneExpect() throws {
        let folder = makeTemporaryFolder("lifebus-scene-expect")
        defer { FolderEntries.removeTree(folder) }
        let refused = [
            "steps:\n  - expect: {app: a, scene: 1, noTask: t}\n",
            "steps:\n  - expect: {app: a, scene: 1, profiles: {ios13: {noMark: m}}}\n",
            "steps:\n  - expect: {app: a, scene: 1, task: {identifier: t, outcome: completed}}\n",
            "steps:\n  - expect: {app: a, scene: 1, presented: none}\n",
        ]
        let texts = refused + ["steps:\n  - expect: {app: a, noTask: t, noMark: m}\n"]
        let files = texts.enumerated().map { index, text in
            let path = "\(folder)/expect-\(index).yaml"
            let file = fopen(path, "w")
            fputs(text, file)
            fclose(file)
            return path
        }
        let child = try ChildProcess(HelperScripts.executable("python3"),
                                     ["\(Self.root)/scripts/validate-scenarios.py"] + files)
        let out = child.stdout.readAll(timeout: .seconds(60))
        #expect(child.wait() == 1, "\(out)")
        #expect(out.contains("1 of 5 files valid"), "\(out)")
        for (file, member) in zip(files, ["noTask", "noMark", "task", "presented"]) {
            #expect(out.contains("\(file): steps/0:"), "\(out)")
            let run = try Self.lifebus(["run", file])
            #expect(run.status == 4 && run.err.contains("\(member) is about the app"), "\(run.err)")
        }
    }

    @Test func everyScenarioFileInTheRepositoryMatchesTheSchema() throws {
        let files = Self.scenarioFiles + ["\(Self.root)/Tests/Fixtures/scenarios/must-fail.yaml"]
        let child = try ChildProcess(HelperScripts.executable("python3"),
                                     ["\(Self.root)/scripts/validate-scenarios.py"] + files)
        let out = child.stdout.readAll(timeout: .seconds(60))
        #expect(child.wait() == 0, "\(out)")
        #expect(out.contains("\(files.count) of \(files.count) files valid"))
    }
}

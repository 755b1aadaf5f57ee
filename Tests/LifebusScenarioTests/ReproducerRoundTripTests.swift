import LifebusCore
import LifebusLifecycle
import LifebusFuzzing
import LifebusProtocol
import LifebusScenario
import Testing

/// What the fuzzer writes, `lifebus run` reads back as the same scenario: generated steps of every kind under every
/// profile, and a reproducer's `note` and `expect` steps, through `ScenarioWriter`'s block layout and the scenario
/// parser with the CLI's own `fire` words.
@Suite struct ReproducerRoundTripTests {
    private func roundTrip(_ scenario: Scenario) throws -> Scenario {
        try ScenarioParser(path: "fuzz.yaml", fireWords: ScenarioParserTests.fireWords)
            .parse(ScenarioWriter.yaml(scenario), defaultName: "fuzz")
    }

    @Test(arguments: Profile.allCases) func generatedStepsReadBackAsWritten(profile: Profile) throws {
        for seed in UInt64(1)...2 {
            var generator = StepGenerator(seed: seed, profile: profile, apps: ["com.example.A", "com.example.B"])
            let scenario = Scenario(
                name: "fuzz-\(seed)", description: "seed \(seed): \"quoted\" words", profiles: [profile],
                apps: [.manifest(path: "/tmp/a b/forgetful.json"), .id("com.example.B")], steps: generator.steps(40))
            #expect(try roundTrip(scenario) == scenario)
        }
    }

    @Test func aReproducersExpectationsReadBackAsWritten() throws {
        let steps: [ScenarioStep] = [
            .note("the next step breaks an invariant"), .expect(ScenarioExpectation(app: "com.example.A")),
            .expect(ScenarioExpectation(app: "com.example.A", mark: ScenarioMark(name: "state-saved"))),
            .expect(ScenarioExpectation(app: "com.example.A", mark: ScenarioMark(
                name: "state-restored", data: ["draft": .integer(3), "text": .string("a: b")]))),
            .expect(ScenarioExpectation(app: "com.example.A", callbacks: [.willResignActive, .didEnterBackground],
                                        states: [.background, .suspended], outcome: .outcome(.ok))),
            .wait(ScenarioWait(app: "com.example.A", states: [.suspended], timeout: .milliseconds(1500))),
            .kill(ScenarioKill(app: "com.example.A", signal: "SEGV")),
        ]
        let scenario = Scenario(name: "reproducer", profiles: [.ios3, .ios7], steps: steps)
        #expect(try roundTrip(scenario) == scenario)
    }
}

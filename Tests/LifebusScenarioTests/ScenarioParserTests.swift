import LifebusCLI
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// The scenario parser on the format's own example and on each kind of mistake: every mistake is placed at
/// `FILE:LINE:COLUMN` and says what is wrong.
@Suite struct ScenarioParserTests {
    /// `lifebus fire`'s own parser, as `lifebus-run` hands it to the scenario parser.
    static let fireWords: FireWordsParser = { words throws(FireWordsError) in
        switch FireWords.parse(words) {
        case .success(let params): return params
        case .failure(let refusal): throw FireWordsError(refusal.message)
        }
    }

    static func parse(_ text: String) throws(ScenarioFileError) -> Scenario {
        try ScenarioParser(path: "s.yaml", fireWords: fireWords).parse(text, defaultName: "s")
    }

    static func error(_ text: String) -> String {
        do throws(ScenarioFileError) {
            _ = try parse(text)
            return "parsed"
        } catch {
            return error.description
        }
    }

    @Test func theFormatsExampleReadsAsWritten() throws {
        let scenario = try Self.parse("""
            name: A call answered
            profiles: [ios7, ios4]
            apps:
              - manifest: ../Examples/manifests/deepthoughts.json
              - id: com.example.Other
            steps:
              - launch: com.example.DeepThoughts
              - fire: call --answer
              - fire: memory-warning --level critical
              - fire: terminate com.example.X --by-user
              - advance: 1.5s
              - wait: {app: com.example.DeepThoughts, state: background|suspended, timeout: 10s}
              - expect:
                  app: com.example.DeepThoughts
                  callbacks: [willResignActive, didEnterBackground]
                  state: suspended
                  mark: {name: state-saved, data: {draft: hello, count: 3}}
                  outcome: ok
                  budget: {callback: didEnterBackground, within: 40%}
                  profiles:
                    ios3: {callbacks: [willResignActive, willTerminate], state: notRunning}
              - kill: {app: com.example.DeepThoughts, signal: SIGSEGV}
              - relaunch: com.example.DeepThoughts
              - note: the user looks at the banner
            """)
        #expect(scenario.name == "A call answered")
        #expect(scenario.profiles == [.ios4, .ios7])
        #expect(scenario.apps == [.manifest(path: "../Examples/manifests/deepthoughts.json"), .id("com.example.Other")])
        #expect(scenario.steps[0] == .launch("com.example.DeepThoughts"))
        #expect(scenario.steps[1] == .fire(FireParams(event: .call, action: .answer)))
        #expect(scenario.steps[2] == .fire(FireParams(event: .memoryWarning, level: .critical)))
        #expect(scenario.steps[3] == .fire(FireParams(event: .terminate, app: "com.example.X", byUser: true)))
        #expect(scenario.steps[4] == .advance(.milliseconds(1500)))
        #expect(scenario.steps[5] == .wait(ScenarioWait(
            app: "com.example.DeepThoughts", states: [.background, .suspended], timeout: .seconds(10))))
        let expectation = ScenarioExpectation(
            app: "com.example.DeepThoughts", callbacks: [.willResignActive, .didEnterBackground], states: [.suspended],
            mark: ScenarioMark(name: "state-saved", data: ["draft": .string("hello"), "count": .integer(3)]),
            outcome: .outcome(.ok), budget: ScenarioBudget(callback: .didEnterBackground, percent: 40),
            profiles: [
                .ios3: ScenarioExpectation(callbacks: [.willResignActive, .willTerminate], states: [.notRunning]),
            ])
        #expect(scenario.steps[6] == .expect(expectation))
        #expect(scenario.steps[7] == .kill(ScenarioKill(app: "com.example.DeepThoughts", signal: "SEGV")))
        #expect(scenario.steps[8] == .relaunch("com.example.DeepThoughts"))
        #expect(scenario.steps[9] == .note("the user looks at the banner"))
        let ios3 = expectation.resolved(for: .ios3)
        #expect(ios3.callbacks == [.willResignActive, .willTerminate])
        #expect(ios3.states == [.notRunning])
        #expect(ios3.outcome == .outcome(.ok))  // not overridden: the shared member
    }

    @Test func sceneStepsNameTheSceneAndItsStates() throws {
        let scenario = try Self.parse("""
            steps:
              - fire: scene reclaim com.example.Notes 1
              - fire: launch com.example.Notes --url https://x.example/a
              - wait: {app: com.example.Notes, scene: 2, state: foregroundActive|foregroundInactive}
              - expect:
                  scene: 1
                  callbacks: [stateRestorationActivity, sceneDidDisconnect]
                  state: unattached
                  profiles:
                    ios13: {state: background}
              - expect: {state: active}
            """)
        var reclaim = FireParams(.scene, .action(.reclaim), app: "com.example.Notes")
        reclaim.scene = SceneID(1)
        reclaim.wait = true
        #expect(scenario.steps[0] == .fire(reclaim))
        guard case .fire(let launch) = scenario.steps[1] else {
            Issue.record("step 1 is not a fire")
            return
        }
        #expect(launch.event == .launch && launch.url == "https://x.example/a")
        #expect(scenario.steps[2] == .wait(ScenarioWait(
            app: "com.example.Notes", scene: SceneID(2), states: [.foregroundActive, .foregroundInactive])))
        let expectation = ScenarioExpectation(
            scene: SceneID(1), callbacks: [.stateRestorationActivity, .sceneDidDisconnect], sceneStates: [.unattached],
            profiles: [.ios13: ScenarioExpectation(sceneStates: [.background])])
        #expect(scenario.steps[3] == .expect(expectation))
        #expect(expectation.resolved(for: .ios13).sceneStates == [.background])
        #expect(expectation.resolved(for: .ios13).scene == SceneID(1))
        #expect(scenario.steps[4] == .expect(ScenarioExpectation(states: [.active])))
        #expect(scenario.steps[2].summary == "wait com.example.Notes scene 2 foregroundActive|foregroundInactive")
    }

    @Test func aScenarioWithoutNameOrProfilesTakesTheFileNameAndEveryProfile() throws {
        let scenario = try Self.parse("steps:\n  - note: hello\n")
        #expect(scenario.name == "s")
        #expect(scenario.profiles == Profile.allCases)
    }

    @Test(arguments: [
        ("steps:\n  - fyre: call\n", "s.yaml:2:5: unknown step 'fyre' (did you mean fire?)"),
        ("steps: []\nstep: []\n", "s.yaml:2:1: unknown member 'step' in a scenario (did you mean steps?)"),
        ("steps:\n  - advance: 5 seconds\n", "s.yaml:2:14: advance '5 seconds' is not a duration"),
        ("steps:\n  - wait: {app: a.b, state: asleep}\n", "s.yaml:2:29: 'asleep' is not a state"),
        ("steps:\n  - expect: {callbacks: [didEnterBackgrond]}\n",
         "s.yaml:2:26: 'didEnterBackgrond' is not a callback (did you mean didEnterBackground?)"),
        ("steps:\n  - fire: call --answr\n", "s.yaml:2:11: fire: Unknown option '--answr'"),
        (
            "steps:\n  - fire: call --answer --decline\n",
            "s.yaml:2:11: fire: Value to be set with flag '--decline' had already been set with flag '--answer'"
        ),
        ("steps:\n  - fire: call --no-wait\n", "s.yaml:2:11: fire: --no-wait is not for scenarios"),
        ("steps:\n  - expect: {outcome: fine}\n", "s.yaml:2:23: 'fine' is not an outcome"),
        ("steps:\n  - expect: {budget: {callback: willTerminate, within: 140%}}\n",
         "s.yaml:2:56: within '140%' is not a share of the budget"),
        ("steps:\n  - expect: {profiles: {ios5: {state: active}}}\n", "s.yaml:2:25: 'ios5' is not a profile"),
        ("steps:\n  - expect: {profiles: {ios3: {profiles: {}}}}\n",
         "s.yaml:2:32: unknown member 'profiles' in a profile's expect"),
        ("steps:\n  - expect: {scene: 1, state: suspended}\n", "s.yaml:2:31: 'suspended' is not a scene state"),
        ("steps:\n  - expect: {scene: 0}\n", "s.yaml:2:21: scene '0' is not a scene's number"),
        ("steps:\n  - wait: {app: a.b, scene: 1, state: active}\n", "s.yaml:2:39: 'active' is not a scene state"),
        ("steps:\n  - expect: {state: foregroundActive}\n", "s.yaml:2:21: 'foregroundActive' is not a state"),
        ("steps:\n  - expect: {scene: 1, profiles: {ios13: {scene: 2}}}\n",
         "s.yaml:2:43: unknown member 'scene' in a profile's expect"),
        ("steps:\n  - kill: {app: a.b, signal: HUP}\n", "s.yaml:2:30: 'HUP' is not a signal a scenario sends"),
        ("steps:\n  - launch: a.b\n    fire: home\n", "s.yaml:2:5: a step is a mapping with one key"),
        ("steps:\n  - launch: [a]\n", "s.yaml:2:13: an app id must be a string"),
        ("name: x\n", "s.yaml:1:1: a scenario needs steps"),
        ("steps: [\n", "s.yaml:2:1: not YAML"),
        ("steps: []\nsteps: []\n", "s.yaml:1:1: not YAML: duplicate member steps"),
        ("", "s.yaml: the file is empty"),
    ])
    func mistakesArePlacedAndExplained(text: String, message: String) {
        let error = Self.error(text)
        #expect(error.hasPrefix(message), "\(error)")
    }
}

import LifebusCore
import LifebusExpectation
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

/// Property: any scenario written as `Scenario.json` (what the fuzzer writes its reproducers with) reads back equal,
/// as JSON and as YAML. Scenarios are drawn from a seeded generator over every step kind and member.
@Suite struct ScenarioRoundTripTests {
    /// Draws from the shared seeded generator (`LifebusCore.SplitMix64`), so a failure names its seed.
    struct Draw {
        var random: SplitMix64

        mutating func int(_ bound: Int) -> Int { random.below(bound) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
        mutating func maybe<T>(_ make: (inout Draw) -> T) -> T? { int(2) == 0 ? nil : make(&self) }
    }

    static let apps = ["com.example.DeepThoughts", "com.example.ReturnMeTo", "a.b-c_d"]

    static func fire(_ draw: inout Draw) -> FireParams {
        let event = draw.pick(FireParams.FireEvent.allCases)
        let declaration = event.declaration
        if declaration.requiresAction {  // `scene`, `power`, `network`: an action always (the app only a scene's)
            return FireParams(event, .action(draw.pick(declaration.actions)), app: draw.pick(apps))
        }
        var params = FireParams(event: event)
        if !declaration.actions.isEmpty, draw.int(2) == 0 { params.action = draw.pick(declaration.actions) }
        if declaration.target == .app { params.app = draw.pick(apps) }
        if !declaration.levels.isEmpty, draw.int(2) == 0 { params.level = draw.pick(declaration.levels) }
        if declaration.takesByUser { params.byUser = draw.int(2) == 0 }
        if event == .bgtask { params.identifier = draw.pick(["com.example.Feed.refresh", "x"]) }
        if event == .push, draw.int(2) == 0 { params.payload = draw.pick(["{}", #"{"aps":{"content-available":1}}"#]) }
        return params
    }

    /// An expectation; a scene's (`ofScene`, or a drawn `scene`) names scene states, an app's app states.
    static func expectation(_ draw: inout Draw, nested: Bool, ofScene: Bool = false) -> ScenarioExpectation {
        var expectation = ScenarioExpectation()
        expectation.app = draw.maybe { $0.pick(apps) }
        if !nested { expectation.scene = draw.maybe { SceneID(UInt32(1 + $0.int(3))) } }
        let ofScene = ofScene || expectation.scene != nil
        expectation.callbacks = draw.maybe { draw in
            (0..<draw.int(4)).map { _ in draw.pick(LifecycleCallback.allCases) }
        }
        if ofScene {
            expectation.sceneStates = draw.maybe { draw in
                (0...draw.int(2)).map { _ in draw.pick(SceneState.allCases) }
            }
        } else {
            expectation.states = draw.maybe { draw in
                (0...draw.int(2)).map { _ in draw.pick(LifecycleState.allCases) }
            }
        }
        expectation.mark = draw.maybe { draw in
            ScenarioMark(name: draw.pick(["state-saved", "x"]), data: draw.pick([
                [:], ["draft": .string("hello")], ["n": .integer(3), "ok": .bool(true), "s": .string("3")],
            ]))
        }
        expectation.outcome = draw.maybe { $0.pick(Verdict.allCases) }
        expectation.budget = draw.maybe { draw in
            ScenarioBudget(callback: draw.pick(LifecycleCallback.allCases), percent: Double(draw.int(101)))
        }
        if !ofScene {  // the background members are the app's
            expectation.task = draw.maybe { draw in
                ScenarioTask(identifier: "com.example.Feed.refresh", outcome: draw.pick(BackgroundTaskOutcome.allCases))
            }
            expectation.push = draw.maybe { $0.pick(ScenarioPushOutcome.allCases) }
            expectation.noMark = draw.maybe { $0.pick(["draft-lost", "x"]) }
            expectation.noTask = draw.maybe { $0.pick(["com.example.Feed.clean", "x"]) }
        }
        if !nested {
            for profile in Profile.allCases where draw.int(3) == 0 {
                expectation.profiles[profile] = Self.expectation(&draw, nested: true, ofScene: ofScene)
            }
        }
        return expectation
    }

    static func step(_ draw: inout Draw) -> ScenarioStep {
        switch draw.int(8) {
        case 0: return .launch(draw.pick(apps))
        case 1: return .fire(fire(&draw))
        case 2: return .advance(draw.pick([.milliseconds(250), .seconds(5), .milliseconds(1500), .seconds(120)]))
        case 3:
            let timeout: Duration = draw.pick([.seconds(10), .milliseconds(300)])
            if draw.int(2) == 0 {
                return .wait(ScenarioWait(app: draw.pick(apps), scene: SceneID(UInt32(1 + draw.int(3))),
                                          states: [draw.pick(SceneState.allCases)], timeout: timeout))
            }
            return .wait(ScenarioWait(app: draw.pick(apps), states: [draw.pick(LifecycleState.allCases)],
                                      timeout: timeout))
        case 4: return .expect(expectation(&draw, nested: false))
        case 5: return .kill(ScenarioKill(app: draw.pick(apps), signal: draw.pick(ScenarioKill.signals.keys.sorted())))
        case 6: return .relaunch(draw.pick(apps))
        default: return .note(draw.pick(["the user looks", "quotes \" and: colons", "  spaced  "]))
        }
    }

    static func scenario(seed: UInt64) -> Scenario {
        var draw = Draw(random: SplitMix64(seed: seed))
        let profiles = Profile.allCases.filter { _ in draw.int(3) != 0 }
        return Scenario(
            name: draw.pick(["a scenario", "n: with colon", "ünïcode ✓"]),
            description: draw.maybe { _ in "free text\nover lines" },
            profiles: profiles.isEmpty ? Profile.allCases : profiles,
            apps: (0..<draw.int(3)).map { _ in
                draw.int(2) == 0 ? .id(draw.pick(apps)) : .manifest(path: "../Examples/manifests/deepthoughts.json")
            },
            steps: (0..<draw.int(12)).map { _ in step(&draw) })
    }

    @Test func everyGeneratedScenarioReadsBackEqual() throws {
        for seed in UInt64(1)...100 {
            let scenario = Self.scenario(seed: seed)
            for path in ["r.json", "r.yaml"] {
                let parser = ScenarioParser(path: path, fireWords: ScenarioParserTests.fireWords)
                let read = try parser.parse(scenario.json.jsonText, defaultName: "r")
                #expect(read == scenario, "seed \(seed) (\(path)): \(scenario.json.jsonText)")
            }
        }
    }
}

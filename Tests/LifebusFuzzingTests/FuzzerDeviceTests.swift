import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

@testable import LifebusFuzzing

/// The fuzzer reasons about the device the run drives: its device knobs reach the generator, the shrinker's legality
/// check and the reproducer's command; an app that device cannot launch at all (under ios27, one that does not adopt
/// scenes) is the session's finding, judged by what the broker does with its launch, never a run that "held".
@Suite struct FuzzerDeviceTests {
    private static let notes = "com.example.NotesScenes"
    private static let scenesAndPushes = AppFacts(scenes: true, pushes: true)
    private static let connects = DeviceKnobs(connectsSceneAtBackgroundLaunch: true)

    private static func notesFuzzer(seed: UInt64, knobs: DeviceKnobs) -> Fuzzer {
        Fuzzer(seed: seed, stepCount: 60, profile: .ios17, apps: [(notes, .manifest(path: "/m/notesscenes.json"))],
               facts: scenesAndPushes, knobs: knobs)
    }

    /// Whether a fresh in-process device under ios17 with `knobs` accepts every one of `steps` in order.
    private static func accepted(_ steps: [ScenarioStep], knobs: DeviceKnobs) -> Bool {
        var device = DeviceModel(profile: .ios17, apps: [notes], facts: scenesAndPushes, knobs: knobs)
        return steps.allSatisfy { device.apply($0) }
    }

    @Test func theStepsAreLegalOnTheDeviceTheBrokersAreStartedAs() {
        // The tester's run: `--seeds 1..8 --steps 60 --profile ios17 --fact scenes --fact pushes
        // --background-launch-scene connects`. Steps made for the profile's own device are not all legal on the
        // connecting one (live, seeds 2, 3 and 5 stopped at a refused scene event); the knobs' own steps are.
        #expect((1...8).contains { !Self.accepted(Self.notesFuzzer(seed: $0, knobs: DeviceKnobs()).steps,
                                                  knobs: Self.connects) })
        for seed: UInt64 in 1...8 {
            let fuzzer = Self.notesFuzzer(seed: seed, knobs: Self.connects)
            #expect(Self.accepted(fuzzer.steps, knobs: Self.connects), "seed \(seed)")
            #expect(fuzzer.isLegal(fuzzer.steps), "seed \(seed): the shrinker's check agrees")
        }
    }

    @Test func theReproducersCommandAndFileNameTheKnobs() {
        let knobs = DeviceKnobs(queuesProtectedDataNotifications: false, connectsSceneAtBackgroundLaunch: true)
        let violation = Violation(app: Self.notes, kind: .notSaved(.didEnterBackground), detail: "no save")
        let scenario = Reproducer.scenario(steps: [.launch(Self.notes)], shrunkFrom: 4, violation: violation,
                                           fuzzer: Self.notesFuzzer(seed: 3, knobs: knobs))
        #expect(scenario.description == "lifebus run --random 3 --steps 60 --profile ios17 --app /m/notesscenes.json "
            + "--fact scenes --fact pushes --protected-data-notifications missed --background-launch-scene connects: "
            + "\(violation.description); shrunk from 4 to 1 steps")
        #expect(scenario.knobs == knobs)
        let plain = Reproducer.scenario(steps: [.launch(Self.notes)], shrunkFrom: 1, violation: violation,
                                        fuzzer: Self.notesFuzzer(seed: 3, knobs: DeviceKnobs()))
        #expect(plain.description?.hasPrefix("lifebus run --random 3 --steps 60 --profile ios17 --app "
            + "/m/notesscenes.json --fact scenes --fact pushes: ") == true)
    }

    private static let thoughts = "com.example.DeepThoughts"

    private static func thoughtsFuzzer(profile: Profile, scenes: Bool = false) -> Fuzzer {
        Fuzzer(seed: 7, stepCount: 10, profile: profile, apps: [(thoughts, .manifest(path: "/m/deepthoughts.json"))],
               facts: AppFacts(saves: "state-saved", scenes: scenes))
    }

    @Test func underIos27AnAppWithoutScenesCannotLaunchAndTheBrokersRefusalIsTheFinding() throws {
        let fuzzer = Self.thoughtsFuzzer(profile: .ios27)
        #expect(fuzzer.unlaunchableApps == [Self.thoughts])
        var runs: [[ScenarioStep]] = []
        let report = try fuzzer.run { steps in
            runs.append(steps)
            return []  // the broker refused the first step
        }
        #expect(runs == [[.launch(Self.thoughts)]], "only the launch is tried, on the broker")
        #expect(report.unlaunchable?.app == Self.thoughts)
        #expect(report.unlaunchable?.refusedByBroker == true)
        #expect(report.failure == nil)
        let scenario = try #require(report.reproducer)
        #expect(scenario.profiles == [.ios27])
        #expect(scenario.steps.last == .launch(Self.thoughts))
        #expect(scenario.description == "lifebus run --random 7 --steps 10 --profile ios27 --app /m/deepthoughts.json "
            + "--fact saves=state-saved: under ios27 com.example.DeepThoughts cannot launch")

        // A broker that launched it after all: the model was wrong about the app, and nothing is reproduced.
        let launched = try fuzzer.run { steps in steps.map { _ in [] } }
        #expect(launched.unlaunchable?.refusedByBroker == false)
        #expect(launched.reproducer == nil)
    }

    @Test(arguments: Profile.allCases) func elsewhereOrWithScenesEveryAppCanLaunch(profile: Profile) {
        #expect(Self.thoughtsFuzzer(profile: profile).unlaunchableApps == (profile == .ios27 ? [Self.thoughts] : []))
        #expect(Self.thoughtsFuzzer(profile: profile, scenes: true).unlaunchableApps.isEmpty)
    }
}

import LifebusCore
import LifebusLifecycle
import LifebusFuzzing
import LifebusProtocol
import LifebusScenario
import Testing

/// The generator: the seed alone decides the sequence, every kind of step appears, and the steps are legal — checked
/// here without the model the generator asks, by what a call, an alert and a terminate need first.
@Suite struct StepGeneratorTests {
    private static let apps = ["com.example.A", "com.example.B"]

    private func steps(seed: UInt64, profile: Profile = .ios7, scenes: Bool = false, count: Int = 200)
        -> [ScenarioStep] {
        var generator = StepGenerator(seed: seed, profile: profile, apps: Self.apps, scenes: scenes)
        return generator.steps(count)
    }

    @Test func theSeedAloneDecidesTheSequence() {
        #expect(steps(seed: 7) == steps(seed: 7))
        #expect(steps(seed: 7) != steps(seed: 8))
        #expect(steps(seed: 7).prefix(2) == [.launch(Self.apps[0]), .launch(Self.apps[1])])
    }

    @Test(arguments: Profile.allCases) func everyKindOfStepAppears(profile: Profile) {
        // Apps without scenes (not under ios27, where they cannot launch) and, where the profile has scenes, apps
        // with them (`--fact scenes`): the scene events are fuzzed only for those.
        let hasScenes = profile.sceneSupport != .none
        let kinds = (profile == .ios27 ? [true] : hasScenes ? [false, true] : [false])
        let words = Set(kinds.flatMap { scenes in
            (1...3).flatMap { steps(seed: $0, profile: profile, scenes: scenes, count: 400) }
        }.map(kind))
        // Every form the fuzzer weighs, as `kind` names it (the default action implicit), and its own steps.
        // The background events and the device's conditions are weighed only under their facts:
        // `BackgroundStepTests`.
        let forms = FireEvent.allCases.filter {
            $0 != .launch && (hasScenes || $0 != .scene) && ![.bgtask, .push, .power, .network].contains($0)
        }.flatMap { event in
            event.declaration.forms.filter { $0.fuzzWeight > 0 }.map { form in
                var params = FireParams(event, form.detail, app: Self.apps[0])
                // `scene` always spells its action (it requires one).
                if params.action == event.declaration.actions.first, !event.declaration.requiresAction {
                    params.action = nil
                }
                return kind(.fire(params))
            }
        }
        let expected = Set(forms + ["launch", "relaunch", "kill", "advance"])
        #expect(expected.subtracting(words).isEmpty, "missing: \(expected.subtracting(words).sorted())")
    }

    @Test(arguments: Profile.allCases) func callsAndAlertsEndOnlyWhenTheyAreThere(profile: Profile) {
        for seed in UInt64(1)...4 {
            var ringing = false
            var inProgress = false
            for step in steps(seed: seed, profile: profile) {
                guard case .fire(let params) = step, params.event == .call else { continue }
                switch params.action {
                case .answer:
                    #expect(ringing, "seed \(seed): answered a call that was not ringing")
                    (ringing, inProgress) = (false, true)
                case .decline:
                    #expect(ringing, "seed \(seed): declined a call that was not ringing")
                    ringing = false
                case .end:
                    #expect(ringing || inProgress, "seed \(seed): ended no call")
                    (ringing, inProgress) = (false, false)
                default:
                    #expect(!inProgress, "seed \(seed): a second call during a call")
                    ringing = true
                }
            }
        }
    }

    private func kind(_ step: ScenarioStep) -> String {
        switch step {
        case .fire(let params):
            var words = [params.event.rawValue]
            if let action = params.action { words.append("--" + action.rawValue) }
            if let level = params.level { words.append("--level " + level.rawValue) }
            if params.byUser { words.append("--by-user") }
            return words.joined(separator: " ")
        default:
            return step.key
        }
    }
}

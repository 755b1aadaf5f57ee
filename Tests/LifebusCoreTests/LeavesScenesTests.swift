@testable import LifebusCore
import LifebusLifecycle
import Testing

/// `Intent.leavesScenes`, which lets `Device.step` move a scene app without reading its scenes (the scene fan-out of a
/// memory warning): it must name exactly the works whose scene move is the app-delegate move in every situation.
@Suite("works that leave scenes")
struct LeavesScenesTests {
    static let intents: [Intent] = LifecycleState.allCases.map(Intent.moveTo) + [
        .launchInBackground, .enterBackground, .memoryWarning, .terminate, .jetsam, .closeApp, .closeScene,
        .reclaimScene, .performTasks, .expireTasks, .deliverPushes, .protectedDataLocking, .protectedDataUnlocked,
    ]

    /// Every situation a scene app's move is chosen in: each app state and flag, with and without a scene step due,
    /// discards owed, connected scenes, URLs to open, a dismissal, under both switcher closes.
    static let situations: [Device.SceneSituation] = {
        var all: [Device.SceneSituation] = []
        let steps: [Device.SceneStep?] = [
            nil, Device.SceneStep(session: 0, callback: .sceneWillResignActive, to: .foregroundInactive),
        ]
        for state in LifecycleState.allCases {
            for flags in 0..<(1 << 9) {
                let bit = { (n: Int) in flags & (1 << n) != 0 }
                let app = Device.Situation(
                    state: state, connected: bit(0), canBackground: bit(1), isFront: bit(2), requiresScenes: bit(3))
                all.append(Device.SceneSituation(
                    app: app, owesDiscards: bit(4), hasScenes: bit(5), sceneStep: steps[bit(6) ? 1 : 0],
                    opensURLs: bit(7), switcherClose: bit(8) ? .terminates : .disconnectsAndDiscards,
                    dismissing: bit(4) && bit(7), destroysAtTermination: bit(5) && bit(7)))
            }
        }
        return all
    }()

    @Test("a work that leaves scenes moves a scene app as it moves an app-delegate app, in every situation",
          arguments: intents.filter(\.leavesScenes))
    func leavingMovesAsTheAppDelegate(intent: Intent) {
        for situation in Self.situations {
            #expect(Device.sceneMove(for: intent, situation) == Device.move(for: intent, situation.app),
                    "\(intent) in \(situation)")
        }
    }

    @Test("every other work moves a scene app otherwise in some situation (it needs the app's scenes)",
          arguments: intents.filter { !$0.leavesScenes })
    func othersNeedTheScenes(intent: Intent) {
        #expect(Self.situations.contains { Device.sceneMove(for: intent, $0) != Device.move(for: intent, $0.app) })
    }
}

import LifebusCore
import LifebusLifecycle
import Testing

/// `DeviceKnobs`, the one declaration of the device's knobs: what `arguments` writes `set(_:to:)` reads back, a word
/// it does not take is refused, and `DeviceConfiguration` takes each knob given over the profile's.
@Suite struct DeviceKnobsTests {
    static let every: [DeviceKnobs] = {
        var all: [DeviceKnobs] = []
        let kinds: [Set<BackgroundTaskKind>?] = [nil, [], [.processing], Set(BackgroundTaskKind.allCases)]
        for queues in [nil, true, false] as [Bool?] {
            for tasks in kinds {
                for connects in [nil, true, false] as [Bool?] {
                    all.append(DeviceKnobs(queuesProtectedDataNotifications: queues, taskKindsAfterForceQuit: tasks,
                                           connectsSceneAtBackgroundLaunch: connects))
                }
            }
        }
        return all
    }()

    @Test func theArgumentsReadBackAsTheSameKnobs() {
        for knobs in Self.every {
            var read = DeviceKnobs()
            var arguments = knobs.arguments[...]
            while let flag = arguments.popFirst(), let value = arguments.popFirst() {
                #expect(flag.hasPrefix("--") && DeviceKnobs.isFlag(String(flag.dropFirst(2))))
                let taken = read.set(String(flag.dropFirst(2)), to: value)
                #expect(taken, "\(flag) \(value)")
            }
            #expect(read == knobs, "\(knobs.arguments)")
        }
    }

    @Test(arguments: [
        ("protected-data-notifications", "sometimes"), ("tasks-after-force-quit", "refresh"),
        ("tasks-after-force-quit", "processing,"), ("tasks-after-force-quit", ""),
        ("background-launch-scene", "always"), ("power", "battery"),
    ])
    func aWordTheFlagDoesNotTakeSetsNothing(flag: String, text: String) {
        var knobs = DeviceKnobs()
        let taken = knobs.set(flag, to: text)
        #expect(!taken)
        #expect(knobs == DeviceKnobs())
    }

    @Test(arguments: Profile.allCases)
    func theConfigurationTakesTheKnobsGivenOverTheProfiles(profile: Profile) {
        let plain = DeviceConfiguration(profile: profile)
        #expect(plain.queuesProtectedDataNotifications == profile.queuesProtectedDataNotifications)
        #expect(plain.taskKindsAfterForceQuit == profile.taskKindsAfterForceQuit)
        #expect(plain.connectsSceneAtBackgroundLaunch == profile.connectsSceneAtBackgroundLaunch)
        let knobs = DeviceKnobs(queuesProtectedDataNotifications: !profile.queuesProtectedDataNotifications,
                                taskKindsAfterForceQuit: [.appRefresh], connectsSceneAtBackgroundLaunch: true)
        let given = DeviceConfiguration(profile: profile, knobs: knobs)
        #expect(given.queuesProtectedDataNotifications == !profile.queuesProtectedDataNotifications)
        #expect(given.taskKindsAfterForceQuit == [.appRefresh])
        #expect(given.connectsSceneAtBackgroundLaunch)
    }
}

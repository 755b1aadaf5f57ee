import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// Background tasks of an app the user force-quit beyond rows B64–B66 (`Protocol/lifecycle.md`, "Force-quit and
/// `BGTaskScheduler`"): the knob's default and the knob widened, a deferred task that runs once asked again after
/// the user's launch, a marked app launched for a processing task that then runs its refresh, and `reset`.
@Suite("background tasks of a force-quit app")
struct ForceQuitTaskTests {
    private static let permits = AppFlags(permittedTaskIdentifiers: ["refresh", "clean"])
    private static let runRefresh = Step.fire(.backgroundTask("A", identifier: "refresh", action: .run))
    private static let runClean = Step.fire(.backgroundTask("A", identifier: "clean", action: .run))

    /// A force-quit A with `refresh` (app refresh) and `clean` (processing) pending, without dates.
    private static func forceQuitWithTasks(_ configuration: DeviceConfiguration) -> Harness {
        var harness = Harness(configuration)
        harness.run(.hold("A"))
        harness.run(.connect("A", permits))
        harness.run(.registerTask("A", "refresh"))
        harness.run(.registerTask("A", "clean"))
        harness.run(.release("A"))
        harness.run(.submitTask("A", "refresh", .appRefresh))
        harness.run(.submitTask("A", "clean", .processing))
        harness.run(.fire(.terminate("A", byUser: true)))
        return harness
    }

    /// The task records from `start` on, as `identifier event`.
    private static func tasks(_ harness: Harness, from start: Int) -> [String] {
        harness.journal[start...].compactMap { action -> String? in
            if case .taskRecord(let task) = action { "\(task.identifier) \(task.event.rawValue)" } else { nil }
        }
    }

    @Test("processing only, wherever there are background tasks; the configuration overrides it",
          arguments: Profile.allCases)
    func theKnobFollowsTheProfile(_ profile: Profile) {
        let expected: Set<BackgroundTaskKind> = profile.hasBackgroundTasks ? [.processing] : []
        #expect(DeviceConfiguration(profile: profile).taskKindsAfterForceQuit == expected)
        let every = Set(BackgroundTaskKind.allCases)
        let widened = DeviceConfiguration(profile: profile, knobs: DeviceKnobs(taskKindsAfterForceQuit: every))
        #expect(widened.taskKindsAfterForceQuit == every)
    }

    @Test("the knob widened to app refresh: a force-quit app is launched for its refresh as a terminated one")
    func theKnobWidenedLaunchesForRefresh() {
        let widened = DeviceKnobs(taskKindsAfterForceQuit: [.appRefresh, .processing])
        var harness = Self.forceQuitWithTasks(DeviceConfiguration(profile: .ios17, knobs: widened))
        let start = harness.journal.count
        harness.run(Self.runRefresh)
        #expect(harness.describe(from: start).contains("start A"))
        #expect(Self.tasks(harness, from: start) == ["refresh launched"])
        #expect(harness.situation == "A=background front=- A.refresh=running A.clean=pending")
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("the knob narrowed to nothing: a processing task is deferred too")
    func theKnobNarrowedDefersProcessing() {
        let narrowed = DeviceConfiguration(profile: .ios17, knobs: DeviceKnobs(taskKindsAfterForceQuit: []))
        var harness = Self.forceQuitWithTasks(narrowed)
        let start = harness.journal.count
        harness.run(Self.runClean)
        #expect(harness.describe(from: start) == ["task A clean deferred"])
        #expect(harness.situation == "A=notRunning front=- A.refresh=pending A.clean=pending")
    }

    @Test("a deferred refresh stays pending and runs when asked again after the user launched the app")
    func aDeferredRefreshRunsAfterTheUsersLaunch() {
        var harness = Self.forceQuitWithTasks(DeviceConfiguration(profile: .ios26))
        let start = harness.journal.count
        harness.run(Self.runRefresh)
        harness.run(.fire(.launch("A")))
        harness.run(.fire(.home))
        harness.run(Self.runRefresh)
        #expect(Self.tasks(harness, from: start) == ["refresh deferred", "refresh launched"])
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("a marked app launched for its processing task runs a refresh that falls due meanwhile: it is running")
    func aMarkedAppRunningRunsItsRefresh() {
        var harness = Self.forceQuitWithTasks(DeviceConfiguration(profile: .ios17))
        let start = harness.journal.count
        harness.run(Self.runClean)
        harness.run(Self.runRefresh)
        #expect(Self.tasks(harness, from: start) == ["clean launched", "refresh launched"])
        #expect(harness.describe(from: start).filter { $0.hasPrefix("start ") } == ["start A"])
    }

    @Test("a processing and a refresh task due together: the refresh is deferred, the processing task launches it")
    func dueTogetherOnlyProcessingLaunches() {
        var harness = Harness(profile: .ios17)
        harness.run(.hold("A"))
        harness.run(.connect("A", Self.permits))
        harness.run(.registerTask("A", "refresh"))
        harness.run(.registerTask("A", "clean"))
        harness.run(.release("A"))
        harness.run(.submitTask("A", "refresh", .appRefresh, after: .seconds(60)))
        harness.run(.submitTask("A", "clean", .processing, after: .seconds(60)))
        harness.run(.fire(.terminate("A", byUser: true)))
        harness.run(.fire(.sleep))  // idle: the processing task may run
        let start = harness.journal.count
        harness.run(.elapse(.seconds(60)))
        #expect(Self.tasks(harness, from: start) == ["refresh deferred", "clean launched"])
        #expect(harness.situation.contains("A.refresh=pending"))
        #expect(harness.violations.isEmpty, "\(harness.violations)")
    }

    @Test("reset (a restarted device) clears the mark of an app it keeps: its refresh launches it again")
    func resetClearsTheMarkForTasks() {
        for reset in [false, true] {
            var harness = Self.forceQuitWithTasks(DeviceConfiguration(profile: .ios17))
            harness.run(Self.runClean)  // launched for its processing task: running, still marked
            harness.run(.completeTask("A", "clean", success: true))
            if reset {
                harness.run(.fire(.reset))  // A has a process: kept, unmarked
            }
            harness.run(.fire(.terminate("A", byUser: false)))
            let start = harness.journal.count
            harness.run(Self.runRefresh)
            #expect(Self.tasks(harness, from: start) == [reset ? "refresh launched" : "refresh deferred"])
            #expect(harness.violations.isEmpty, "\(harness.violations)")
        }
    }
}

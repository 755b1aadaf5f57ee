import LifebusTesting
import Testing

/// The kit's device conditions (`setPower`, `setNetwork`): a processing task that requires external power and the
/// network, due while the device is on its battery and offline, waits past its earliest begin date and runs when
/// the last requirement is met; `runBackgroundTask` runs it on demand whatever the conditions.
@Suite(.hangGuard)
@MainActor
struct DeviceConditionsKitTests {
    nonisolated static let id: AppID = "com.example.Cleaner"
    nonisolated static let clean = "com.example.Cleaner.clean"

    /// Registers `clean` while it launches and submits it as a processing task due in 60 s that requires external
    /// power and the network; completes it when it runs, counting its runs.
    final class Cleaner: ApplicationDelegate {
        var runs = 0

        func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
            try? await application.taskScheduler.register(identifier: DeviceConditionsKitTests.clean) { task in
                self.runs += 1
                Task { try? await task.setTaskCompleted(success: true) }
            }
            try? await application.taskScheduler.submit(.init(
                identifier: DeviceConditionsKitTests.clean, kind: .processing, earliestBeginAfter: .seconds(60),
                requiresExternalPower: true, requiresNetworkConnectivity: true))
        }
    }

    private func launched() async throws -> (LifebusTestBus, LifebusTestApp, Cleaner) {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios13)
        var options = ApplicationOptions()
        options.permittedTaskIdentifiers = [Self.clean]
        let cleaner = Cleaner()
        return (bus, try await bus.launch(Self.id, delegate: cleaner, options: options), cleaner)
    }

    @Test func aProcessingTaskWaitsForPowerAndNetworkThenRuns() async throws {
        let (bus, app, cleaner) = try await launched()
        try await bus.setPower(.battery)
        try await bus.setNetwork(.offline)
        try await bus.fire(.home)
        try await bus.lock()
        try await bus.advance(by: .seconds(60))
        #expect(cleaner.runs == 0, "due, but on battery and offline")
        try await bus.setPower(.external)
        #expect(cleaner.runs == 0, "still offline")
        try await bus.setNetwork(.online)
        try await bus.expect(app, task: Self.clean, outcome: .completed)
        #expect(cleaner.runs == 1)
    }

    @Test func anUnlockedDeviceIsNotIdleUntilItLocks() async throws {
        let (bus, app, cleaner) = try await launched()
        try await bus.fire(.home)
        try await bus.advance(by: .seconds(60))
        #expect(cleaner.runs == 0, "due, plugged in and online, but the device is in use")
        try await bus.lock()
        try await bus.expect(app, task: Self.clean, outcome: .completed)
        #expect(cleaner.runs == 1)
    }

    @Test func runBackgroundTaskRunsItOnDemandWhateverTheConditions() async throws {
        let (bus, app, cleaner) = try await launched()
        try await bus.setPower(.battery)
        try await bus.setNetwork(.offline)
        try await bus.runBackgroundTask(app, Self.clean)
        try await bus.expect(app, task: Self.clean, outcome: .completed)
        #expect(cleaner.runs == 1)
    }
}

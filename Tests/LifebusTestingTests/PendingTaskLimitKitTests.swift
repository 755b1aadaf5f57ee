import Lifebus
import LifebusTesting
import Testing

/// `BGTaskScheduler`'s limit on pending requests (`lifecycle.md` B46) reaches an app's own code over the real broker:
/// a second app refresh request is refused with an error the app matches on (`rejectionReason`), and a resubmission
/// of the pending one replaces it.
@Suite(.hangGuard)
@MainActor
struct PendingTaskLimitKitTests {
    nonisolated static let refresh = "com.example.Feeds.refresh"
    nonisolated static let feed = "com.example.Feeds.feed"

    /// Registers both refresh identifiers while it launches and submits `refresh`.
    final class Feeds: ApplicationDelegate {
        func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
            try? await application.taskScheduler.register(identifier: PendingTaskLimitKitTests.refresh) { _ in }
            try? await application.taskScheduler.register(identifier: PendingTaskLimitKitTests.feed) { _ in }
            try? await application.taskScheduler.submit(.init(
                identifier: PendingTaskLimitKitTests.refresh, kind: .appRefresh, earliestBeginAfter: .seconds(900)))
        }
    }

    @Test func aSecondPendingRefreshRequestIsRefusedTooManyPendingTaskRequestsOnTheLiveBroker() async throws {
        let bus = try await LifebusTestBus(.live, profile: .ios13)
        var options = ApplicationOptions()
        options.permittedTaskIdentifiers = [Self.refresh, Self.feed]
        let app = try await bus.launch("com.example.Feeds", delegate: Feeds(), options: options)
        let scheduler = try #require(app.application).taskScheduler
        var refused: RejectionReason?
        do {
            try await scheduler.submit(.init(identifier: Self.feed, kind: .appRefresh))
        } catch {
            refused = error.rejectionReason
        }
        #expect(refused == .tooManyPendingTaskRequests)
        // The pending request's own identifier replaces it, and does not count against it.
        try await scheduler.submit(.init(identifier: Self.refresh, kind: .appRefresh))
        // A processing request is counted apart.
        try await scheduler.submit(.init(identifier: Self.feed, kind: .processing))
        await bus.shutdown()
    }
}

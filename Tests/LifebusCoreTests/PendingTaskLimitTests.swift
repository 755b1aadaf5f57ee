import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// What rows B46–B47 do not show of `BGTaskScheduler`'s limit on pending requests: the limit is per kind and per
/// app, a refused request changes nothing, a task waiting for its conditions still counts, one launched no longer
/// does, and continued processing is not counted.
@Suite("pending task limit")
struct PendingTaskLimitTests {
    static let processing = (0...10).map { "p\($0)" }
    static let identifiers = ["refresh", "feed", "export"] + processing

    /// `apps` launched in turn registering every identifier, under `profile`; audio apps, so one sent to the background
    /// runs on and may still submit.
    static func launched(_ profile: Profile, apps: [AppID] = ["A"]) -> Harness {
        var harness = Harness(profile: profile)
        for app in apps {
            harness.run(.hold(app))
            harness.run(.connect(app, AppFlags(backgroundModes: ["audio"], permittedTaskIdentifiers: identifiers)))
            for identifier in identifiers {
                harness.run(.registerTask(app, identifier))
            }
            harness.run(.release(app))
        }
        return harness
    }

    static func refusals(_ harness: Harness, since start: Int) -> [RejectionReason] {
        harness.journal[start...].compactMap { action in
            if case .reject(let rejection) = action { rejection.reason } else { nil }
        }
    }

    @Test("1 refresh and 10 processing requests pending together; one more of either kind is refused")
    func theLimitIsPerKind() {
        var harness = Self.launched(.ios13)
        harness.run(.submitTask("A", "refresh", .appRefresh, after: .seconds(60)))
        for identifier in Self.processing.dropLast() {
            harness.run(.submitTask("A", identifier, .processing, after: .seconds(60)))
        }
        #expect(Self.refusals(harness, since: 0).isEmpty)
        let start = harness.journal.count
        harness.run(.submitTask("A", "p10", .processing))
        harness.run(.submitTask("A", "feed", .appRefresh))
        #expect(Self.refusals(harness, since: start) == [.tooManyPendingTaskRequests, .tooManyPendingTaskRequests])
    }

    @Test("a refused request leaves the pending requests as they were")
    func aRefusalChangesNothing() {
        var harness = Self.launched(.ios13)
        harness.run(.submitTask("A", "refresh", .appRefresh, after: .seconds(60)))
        let before = harness.device.backgroundTasks(of: "A")
        let start = harness.journal.count
        harness.run(.submitTask("A", "feed", .appRefresh, after: .seconds(5)))
        #expect(Self.refusals(harness, since: start) == [.tooManyPendingTaskRequests])
        #expect(harness.device.backgroundTasks(of: "A") == before)
        harness.run(.elapse(.seconds(30)))
        #expect(harness.device.backgroundTasks(of: "A").map(\.state) == [.pending], "feed never fell due")
    }

    @Test("each app has its own limit")
    func theLimitIsPerApp() {
        var harness = Self.launched(.ios13, apps: ["A", "B"])
        harness.run(.submitTask("A", "refresh", .appRefresh))
        harness.run(.submitTask("B", "refresh", .appRefresh))
        #expect(Self.refusals(harness, since: 0).isEmpty)
        #expect(harness.device.backgroundTasks(of: "B").count == 1)
    }

    @Test("a processing task waiting for its conditions is pending and counts")
    func aWaitingTaskCounts() {
        var harness = Self.launched(.ios13)
        harness.run(.fire(.power(.battery)))
        for identifier in Self.processing.dropLast() {
            harness.run(.submitTask("A", identifier, .processing, after: .seconds(1), requires: [.externalPower]))
        }
        harness.run(.elapse(.seconds(2)))
        #expect(harness.device.backgroundTasks(of: "A").allSatisfy { $0.state == .waiting })
        let start = harness.journal.count
        harness.run(.submitTask("A", "p10", .processing))
        #expect(Self.refusals(harness, since: start) == [.tooManyPendingTaskRequests])
    }

    @Test("a launched refresh task no longer counts: its handler may submit the next one")
    func aRunningTaskDoesNotCount() {
        var harness = Self.launched(.ios13)
        harness.run(.submitTask("A", "refresh", .appRefresh))
        harness.run(.fire(.backgroundTask("A", identifier: "refresh", action: .run)))
        harness.run(.submitTask("A", "feed", .appRefresh))
        #expect(Self.refusals(harness, since: 0).isEmpty)
        #expect(harness.device.backgroundTasks(of: "A").map(\.state).sorted { "\($0)" < "\($1)" }
            == [.pending, .running])
    }

    @Test("continued-processing requests are not counted")
    func continuedProcessingIsNotCounted() {
        var harness = Self.launched(.ios26)
        harness.run(.submitTask("A", "refresh", .appRefresh))
        for identifier in Self.processing.dropLast() {
            harness.run(.submitTask("A", identifier, .processing))
        }
        harness.run(.submitTask("A", "export", .continuedProcessing))
        #expect(Self.refusals(harness, since: 0).isEmpty)
        #expect(harness.device.backgroundTasks(of: "A").count == 12)
    }
}

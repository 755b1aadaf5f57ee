import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline
import Testing

/// The background life in the timeline, on the committed journal `Tests/Fixtures/timeline/background.jsonl` (ios17,
/// manual clock; written by hand to the record schemas): Feed submits a refresh task, the device sleeps and its
/// protected data goes 10 s later, a silent push is answered `newData` while locked and another deferred, the device
/// wakes, Feed goes home and submits a processing task; 15 minutes on Feed is resumed into the background
/// (`didEnterBackground`, row B05) and both tasks launch, the processing one completes unsuccessfully, the refresh
/// one is told it expires and, never completed, expires 30 s after its launch and Feed is killed, the held push
/// discarded with its process.
@Suite struct BackgroundLaneTests {
    static let feed = "com.example.Feed"
    static let refresh = "com.example.Feed.refresh"
    static let cleanup = "com.example.Feed.cleanup"

    static func timeline(apps: [String] = []) throws -> Timeline {
        Timeline(entries: try TimelineFixture.entries("background.jsonl"), apps: apps)
    }

    @Test func theRecordsAreReadAndNoneIsSkipped() throws {
        let lines = try TimelineFixture.lines("background.jsonl")
        let entries = try lines.compactMap { value throws in try JournalEntries.decode(value) }
        #expect(entries.count == lines.count)
        #expect(throws: RPCError.self) { try JournalEntries.decode(["type": "task", "seq": 1]) }
    }

    @Test func eachTaskIsARunFromItsSubmissionToItsEndAgainstItsBudget() throws {
        let lane = try #require(try Self.timeline().lanes.first)
        #expect(lane.tasks.map(\.identifier) == [Self.refresh, Self.cleanup])
        let refresh = lane.tasks[0]
        #expect(refresh.kind == .appRefresh)
        #expect(refresh.submittedMs == 1 && refresh.launchedMs == 920_012 && refresh.expiringMs == 945_012)
        #expect(refresh.endMs == 950_012 && refresh.outcome == .expired && refresh.success == nil)
        #expect(refresh.budgetMs == 30_000, "ios17's appRefreshBudget")
        #expect(refresh.ranMs == 30_000 && refresh.overBudget)
        #expect(refresh.outcomeText == "expired: app killed")
        let cleanup = lane.tasks[1]
        #expect(cleanup.kind == .processing && cleanup.budgetMs == nil, "runs until the user returns")
        #expect(cleanup.outcome == .completed && cleanup.success == false && !cleanup.overBudget)
        #expect(cleanup.outcomeText == "completed (failed)" && cleanup.ranMs == 487)
    }

    @Test func aDeferredTaskStaysThePendingRunTheLaterLaunchStarts() throws {
        let lines = try TimelineFixture.lines("background.jsonl").prefix(3)
        func task(_ seq: Int, _ event: String, _ atMs: Int) throws -> JSONValue {
            try JSONParser.parse("""
                {"type":"task","seq":\(seq),"app":"\(Self.feed)","pid":null,"identifier":"\(Self.refresh)",\
                "kind":"appRefresh","event":"\(event)","success":null,"atMs":\(atMs),"wallMs":1795954053839}
                """)
        }
        let values = Array(lines) + [try task(4, "deferred", 900_000), try task(5, "launched", 960_000)]
        let entries = try values.compactMap { value throws in try JournalEntries.decode(value) }
        let lane = try #require(Timeline(entries: entries, apps: []).lanes.first)
        #expect(lane.tasks.count == 1, "a deferral is not a run of its own")
        #expect(lane.tasks.first?.submittedMs == 1 && lane.tasks.first?.launchedMs == 960_000)
        #expect(lane.tasks.first?.outcome == .running)
    }

    @Test func theKillAtATasksExpiryNamesTheTask() throws {
        let lane = try #require(try Self.timeline().lanes.first)
        let ending = try #require(lane.endings.last)
        #expect(ending.outcome == .watchdog && ending.atMs == 950_012, "journaled as the broker does")
        #expect(ending.reason == "killed: background task \(Self.refresh) expired")
    }

    @Test func aPushesResultIsOnItsCallbackAndEveryStepIsKept() throws {
        let lane = try #require(try Self.timeline().lanes.first)
        let pushes = lane.callbacks.filter { $0.callback == .didReceiveRemoteNotification }
        #expect(pushes.count == 1 && pushes[0].fetchResult == .newData && pushes[0].budgetMs == 30_000)
        #expect(lane.callbacks.allSatisfy { $0.callback == .didReceiveRemoteNotification || $0.fetchResult == nil })
        #expect(lane.pushes.map(\.text)
            == ["push delivered", "push answered newData", "push deferred", "push discarded"])
    }

    @Test func aNotificationPresentedInFrontSaysWhatTheAppChose() throws {
        let steps: [(PushDeliveryRecord.Event, NotificationPresentationOptions?)] = [
            (.delivered, nil), (.presented, [.banner, .sound]), (.delivered, nil), (.presented, []),
        ]
        let entries = steps.enumerated().map { seq, step in
            JournalEntry.push(PushDeliveryRecord(
                seq: Int64(seq + 1), app: Self.feed, pid: 1, event: step.0, result: nil, presentation: step.1,
                payload: "{}", atMs: Double(seq), wallMs: 0))
        }
        let lane = try #require(Timeline(entries: entries).lanes.first)
        #expect(lane.pushes.map(\.text) == [
            "push delivered", "push presented banner,sound", "push delivered", "push presented none",
        ])
    }

    @Test func protectedDataIsUnavailableFromItsRecordUntilTheNextAndKeptWhicheverAppsAreChosen() throws {
        let lock = Timeline.ProtectedDataLock(seq: 6, startMs: 10_010, endMs: 20_000, reopened: true)
        #expect(try Self.timeline().locks == [lock])
        #expect(try Self.timeline(apps: ["com.example.Other"]).locks == [lock])
        let unended = try TimelineFixture.entries("background.jsonl").filter { entry in
            if case .protectedData(let record) = entry { !record.available } else { true }
        }
        #expect(Timeline(entries: unended).locks == [
            Timeline.ProtectedDataLock(seq: 6, startMs: 10_010, endMs: 950_012, reopened: false),
        ])
    }

    @Test func aSubmissionWhileOneIsPendingReplacesItAndACancelEndsIt() throws {
        func step(_ seq: Int64, _ event: BackgroundTaskRecord.Event, at atMs: Double) -> JournalEntry {
            .task(BackgroundTaskRecord(seq: seq, app: Self.feed, pid: nil, identifier: Self.refresh,
                                       kind: .appRefresh, event: event, success: nil, atMs: atMs, wallMs: 0))
        }
        let tasks = Timeline(entries: [step(1, .submitted, at: 0), step(2, .submitted, at: 5),
                                       step(3, .cancelled, at: 9), step(4, .launched, at: 12)]).lanes[0].tasks
        #expect(tasks.count == 2)
        #expect(tasks[0].submittedMs == 5 && tasks[0].outcome == .cancelled && tasks[0].endMs == 9)
        #expect(tasks[1].submittedMs == nil && tasks[1].launchedMs == 12 && tasks[1].outcome == .running)
    }

    @Test func theTextSaysEachStepTheLockAndThePushesResult() throws {
        let text = TimelineText.render(try Self.timeline())
        for line in [
            "protected data:\n       10010  UNAVAILABLE (device locked); available again after 9990 ms",
            "           1  task \(Self.refresh) appRefresh submitted",
            "      920012  task \(Self.refresh) launched, budget 30000 ms",
            "      945012  task \(Self.refresh) expiring after 25000 ms",
            "      950012  task \(Self.refresh) EXPIRED after 30000 ms: app killed",
            "      920013  task \(Self.cleanup) launched, no fixed budget",
            "      920500  task \(Self.cleanup) completed (failed) after 487 ms",
            "didReceiveRemoteNotification active → active: 2 ms of 30000 ms budget, ok → newData (push --silent)",
            "       15020  push deferred",
            "      950012  push discarded",
            "      950012  ENDED killed: background task \(Self.refresh) expired",
        ] {
            #expect(text.contains(line), "missing \(line) in\n\(text)")
        }
    }

    @Test func theChromeTraceHasATaskThreadAndTheDevicesLock() throws {
        let document = ChromeTrace.document(try Self.timeline())
        let events = try #require(document["traceEvents"]?.arrayValue)
        let tasks = events.filter { $0["cat"]?.stringValue == "task" && $0["ph"]?.stringValue == "X" }
        #expect(tasks.map { $0["name"]?.stringValue } == [Self.refresh, Self.cleanup])
        #expect(tasks[0]["ts"]?.int64Value == 920_012_000 && tasks[0]["dur"]?.int64Value == 30_000_000)
        #expect(tasks[0]["args"]?["outcome"]?.stringValue == "expired" && tasks[0]["cname"]?.stringValue == "terrible")
        #expect(tasks.allSatisfy { $0["tid"]?.int64Value == ChromeTrace.tasksTID })
        let pending = events.filter { $0["cat"]?.stringValue == "taskPending" }
        #expect(pending.first?["dur"]?.int64Value == 920_011_000)
        let lock = try #require(events.first { $0["cat"]?.stringValue == "protectedData" })
        #expect(lock["pid"]?.int64Value == ChromeTrace.devicePID && lock["dur"]?.int64Value == 9_990_000)
        let push = try #require(events.first { $0["name"]?.stringValue == "didReceiveRemoteNotification" })
        #expect(push["args"]?["fetchResult"]?.stringValue == "newData")
        for step in ["push deferred", "push discarded"] {
            #expect(events.contains { $0["name"]?.stringValue == step && $0["cat"]?.stringValue == "push" })
        }
    }

    @Test(arguments: [SVGTimeline.minimumWidth, SVGTimeline.defaultWidth, 1_920])
    func theSVGDrawsTheTaskRowsTheBandAndThePushWithoutOverlappingLabels(width: Double) throws {
        let picture = SVGTimeline(try Self.timeline(), width: width)
        let svg = picture.render()
        #expect(picture.taskBarTop(lane: 0, task: 1) > picture.taskBarTop(lane: 0, task: 0), "a row per identifier")
        #expect(picture.taskRowTop(lane: 0, task: 0) >= picture.gaugeTop(lane: 0, callback: 0))
        #expect(picture.lanesBottom >= picture.taskRowTop(lane: 0, task: 1) + SVGTimeline.taskRowHeight)
        let rects = SVGElement.all("rect", in: svg)
        let red = rects.filter {
            $0.attributes["fill"] == TimelinePalette.failure
                && $0.number("y") == picture.taskBarTop(lane: 0, task: 0) + 2
        }
        #expect(red.count == 1, "the expired task's fill is red")
        let band = rects.filter { $0.attributes["fill"] == TimelinePalette.locked && $0.attributes["stroke"] == nil }
        #expect(band.count == 1)
        #expect(abs((band.first?.number("x") ?? 0) - picture.axis.x(10_010)) < 0.1)
        let texts = LabelLayoutTests.boxes(svg)
        let words = texts.map(\.text)
        #expect(words.contains("task \(Self.refresh)") || words.contains { $0.hasPrefix("task com.") })
        #expect(words.contains("2 ms, newData") || words.contains("newData"), "the push's result under its gauge")
        // At 640 px the bar is too short for its label between the breaks; its group's title keeps it.
        #expect(words.contains { $0.hasPrefix("expired: app killed") } || width < SVGTimeline.defaultWidth)
        #expect(svg.contains("expired: app killed at 950012 ms</title>"))
        #expect(words.contains("protected data unavailable"))
        // The held push and its discard: a dashed tick each where it happened, the discard in the failure's colour.
        let ticks = SVGElement.all("line", in: svg).filter { $0.attributes["stroke-dasharray"] == "3 2" }
        for (x, colour) in [(picture.axis.x(15_020), TimelinePalette.budget),
                            (picture.axis.x(950_012), TimelinePalette.failure)] {
            #expect(ticks.contains { abs(($0.number("x1") ?? -1) - x) < 0.1 && $0.attributes["stroke"] == colour },
                    "no \(colour) tick at \(x)")
        }
        #expect(svg.contains("\(Self.feed) push discarded at 950012 ms</title>"))
        for (index, first) in texts.enumerated() {
            for second in texts[(index + 1)...] where first.box.intersects(second.box) {
                Issue.record("at \(width) px, \"\(first.text)\" overlaps \"\(second.text)\"")
            }
            #expect(first.box.minX >= 0 && first.box.maxX <= width, "\"\(first.text)\" past the edge")
        }
    }
}

import Glibc
import LifebusIO
import LifebusJSON
import LifebusTimeline
import Testing

/// `lifebus trace` of a real background run (the broker on a manual clock under `ios17`, the FeedReader example):
/// the device locked with protected data going away while a silent push arrives, then a refresh task that forgets
/// `setTaskCompleted` expiring and its app killed; drawn by headless Chromium with the lock as a band and the task's
/// bar red past its launch, and said in text.
@Suite struct TimelineBackgroundPictureTests {
    static let id = BackgroundExecutionTests.id
    static let task = "com.example.FeedReader.refresh"

    @Test func aLockAndAnExpiredRefreshTaskAreDrawnAndSaid() throws {
        let broker = try BackgroundExecutionTests.broker()
        let state = broker.socketPath + ".feed"
        defer { unlink(state + ".draft") }
        let app = try ChildProcess("FeedReader", [
            "--socket", broker.socketPath, "--state-file", state, "--forgets-completion",
        ])
        #expect(try broker.reached(Self.id, "active"))
        #expect(try broker.cli(["fire", "sleep"]).status == 0)
        #expect(try broker.cli(["clock", "advance", "15s"]).status == 0)
        #expect(try broker.cli(["fire", "push", Self.id, "--silent"]).status == 0)
        #expect(try AppsSupervisedTests.eventually {
            try BackgroundExecutionTests.records(broker, "push").contains { $0["event"]?.stringValue == "answered" }
        })
        #expect(try broker.cli(["fire", "wake"]).status == 0)
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(Self.id, "suspended"))
        #expect(try broker.cli(["clock", "advance", "15m"]).status == 0)
        #expect(try AppsSupervisedTests.eventually {
            try BackgroundExecutionTests.markNames(broker).contains("refresh-started")
        })
        #expect(try broker.cli(["clock", "advance", "30s"]).status == 0)
        #expect(app.waitForExit() != 0, "killed, not exited")

        let text = try broker.cli(["trace", "--format", "text"])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.contains("protected data:\n"), "\(text.out)")
        #expect(text.out.contains("UNAVAILABLE (device locked); available again after"), "\(text.out)")
        #expect(text.out.contains("task \(Self.task) appRefresh submitted"), "\(text.out)")
        #expect(text.out.contains("task \(Self.task) launched, budget 30000 ms"), "\(text.out)")
        #expect(text.out.contains("task \(Self.task) EXPIRED after 30000 ms: app killed"), "\(text.out)")
        #expect(text.out.contains("ENDED killed: background task \(Self.task) expired"), "\(text.out)")
        #expect(text.out.contains("push answered"), "\(text.out)")

        let folder = makeTemporaryFolder("lifebus-timeline-background")
        defer { FolderEntries.removeTree(folder) }
        let svg = "\(folder)/timeline.svg"
        let png = "\(folder)/timeline.png"
        #expect(try broker.cli(["trace", "-o", svg]).status == 0)
        let journal = try #require(readFile(broker.journalPath))
        let entries = try journal.split(separator: "\n").compactMap { line throws in
            try JournalEntries.decode(try JSONParser.parse(String(line)))
        }
        let picture = SVGTimeline(Timeline(entries: entries))
        let lane = try #require(picture.timeline.lanes.first { $0.app == Self.id })
        let laneIndex = try #require(picture.timeline.lanes.firstIndex { $0.app == Self.id })
        let runIndex = try #require(lane.tasks.firstIndex { $0.outcome == .expired })
        let run = lane.tasks[runIndex]
        let lock = try #require(picture.timeline.locks.first)
        let rendered = try HelperScripts.screenshot(
            svg: svg, png: png, width: Int(picture.width), height: Int(picture.height)
        )
        #expect(rendered.status == 0, "chromium: \(rendered.err)")

        let barY = picture.taskBarTop(lane: laneIndex, task: runIndex) + SVGTimeline.taskBarHeight / 2
        let barX = picture.axis.x(try #require(run.launchedMs)) + 4
        // The band over the lane's white background, just above the next lane (or the axis), clear of the bars.
        let bandX = picture.axis.x(lock.startMs) + 6
        let bandY = picture.laneTop(laneIndex + 1) - 2
        let tint = TimelinePalette.rgb(TimelinePalette.locked)
        let blend = { (channel: Int) in Int((255 * (1 - TimelinePalette.lockedOpacity)
            + Double(channel) * TimelinePalette.lockedOpacity).rounded()) }
        _ = try ColourProbes.expectColours(in: png, [
            ColourProbe(point: "\(barX),\(barY)", hex: TimelinePalette.failure, what: "the expired task's bar"),
            ColourProbe(
                point: "\(bandX),\(bandY)", rgb: (blend(tint.red), blend(tint.green), blend(tint.blue)),
                what: "the protected-data band"),
        ])
    }
}

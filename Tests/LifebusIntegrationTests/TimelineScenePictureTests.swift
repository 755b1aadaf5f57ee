import Glibc
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusTimeline
import Testing

/// `lifebus trace` on the committed scene journal `Tests/Fixtures/timeline/scenes.jsonl` (an app-delegate app and a
/// scene app with three scenes over two sessions), drawn by headless Chromium: each scene's sub-lane shows its
/// scene states in their colours where the layout puts them (those wide enough at the picture's scale), under its
/// app's lane.
@Suite struct TimelineScenePictureTests {
    static let journal = "\(TranscriptReplayTests.repositoryRoot)/Tests/Fixtures/timeline/scenes.jsonl"

    @Test func chromiumShowsEachScenesStatesInItsSubLane() throws {
        let folder = makeTemporaryFolder("lifebus-timeline-scene-timeline")
        defer { FolderEntries.removeTree(folder) }
        let svg = "\(folder)/timeline.svg"
        let png = "\(folder)/timeline.png"
        let drawn = try runCLI(["trace", "--journal", Self.journal, "-o", svg])
        #expect(drawn.status == 0, "\(drawn.err)")
        let text = try #require(readFile(Self.journal))
        let entries = try text.split(separator: "\n").compactMap { line throws in
            try JournalEntries.decode(try JSONParser.parse(String(line)))
        }
        let picture = SVGTimeline(Timeline(entries: entries))
        let rendered = try HelperScripts.screenshot(
            svg: svg, png: png, width: Int(picture.width), height: Int(picture.height)
        )
        #expect(rendered.status == 0, "chromium: \(rendered.err)")

        var probes: [(point: String, expected: String, what: String)] = []
        for (index, lane) in picture.timeline.lanes.enumerated() {
            for (position, scene) in lane.scenes.enumerated() {
                let y = picture.sceneBarTop(lane: index, scene: position) + SVGTimeline.sceneBarHeight / 2
                for span in scene.spans {
                    let clear = TimelinePictureTests.clearX(from: span.startMs, to: span.endMs, picture: picture)
                    guard let x = clear else { continue }
                    probes.append(("\(x),\(y)", TimelinePalette.color(of: span.state), "\(scene.label) \(span.state)"))
                }
            }
        }
        // To scale, a scene's `unattached` stretches (well under a millisecond in this run) are too thin to sample.
        let sampled = Set(probes.map(\.expected))
        let shown: [SceneState] = [.foregroundInactive, .foregroundActive, .background]
        #expect(sampled == Set(shown.map(TimelinePalette.color)), "every scene state shown is sampled: \(probes)")
        _ = try ColourProbes.expectColours(
            in: png, probes.map { ColourProbe(point: $0.point, hex: $0.expected, what: $0.what) })
    }
}

import Glibc
import LifebusIO
import LifebusJSON
import LifebusTimeline
import Testing

/// `lifebus trace` on the committed journal `Tests/Fixtures/timeline/journal.jsonl`: the SVG as headless Chromium
/// renders it (each lane's states in their colours where the layout puts them, the watchdog's red gauge, the
/// legend, the lane names), and the Chrome trace's structure as Perfetto reads it.
@Suite struct TimelinePictureTests {
    static let journal = "\(TranscriptReplayTests.repositoryRoot)/Tests/Fixtures/timeline/journal.jsonl"

    /// The fixture as the library draws it (the CLI draws the same), for the positions to sample.
    static func layout() throws -> SVGTimeline {
        let text = try #require(readFile(journal))
        let entries = try text.split(separator: "\n").compactMap { line throws in
            try JournalEntries.decode(try JSONParser.parse(String(line)))
        }
        return SVGTimeline(Timeline(entries: entries))
    }

    @Test func chromiumShowsEachLaneInItsStateColoursWithTheWatchdogInRed() throws {
        let folder = makeTemporaryFolder("lifebus-timeline-timeline")
        defer { FolderEntries.removeTree(folder) }
        let svg = "\(folder)/timeline.svg"
        let png = "\(folder)/timeline.png"
        let drawn = try runCLI(["trace", "--journal", Self.journal, "-o", svg])
        #expect(drawn.status == 0, "\(drawn.err)")
        let picture = try Self.layout()
        let rendered = try HelperScripts.screenshot(
            svg: svg, png: png, width: Int(picture.width), height: Int(picture.height)
        )
        #expect(rendered.status == 0, "chromium: \(rendered.err)")

        var probes: [(point: String, expected: String, what: String)] = []
        for (index, lane) in picture.timeline.lanes.enumerated() {
            let y = picture.stateBarTop(lane: index) + SVGTimeline.stateBarHeight / 2 + 4
            for span in lane.spans {
                guard let x = Self.clearX(from: span.startMs, to: span.endMs, picture: picture) else { continue }
                probes.append(("\(x),\(y)", TimelinePalette.color(of: span.state), "\(lane.app) \(span.state)"))
            }
        }
        let watchdog = try #require(picture.timeline.lanes[1].callbacks.last)
        let gaugeX = picture.axis.x(watchdog.sentMs) + SVGTimeline.gaugeWidth / 2
        let gaugeY = picture.gaugeTop(lane: 1, callback: picture.timeline.lanes[1].callbacks.count - 1)
            + SVGTimeline.gaugeHeight / 2
        probes.append(("\(gaugeX),\(gaugeY)", TimelinePalette.failure, "the unanswered callback's gauge"))
        #expect(Set(probes.map(\.expected)).count == 6, "every state and the red are sampled: \(probes)")

        let labelBox = "ink:12,\(Int(picture.stateBarTop(lane: 0))),200,\(Int(picture.stateBarTop(lane: 0)) + 20)"
        let sampled = try ColourProbes.expectColours(
            in: png, probes.map { ColourProbe(point: $0.point, hex: $0.expected, what: $0.what) }, extra: [labelBox])
        #expect(sampled.size == "size \(Int(picture.width)) \(Int(picture.height))")
        #expect((Int(sampled.extra[0]) ?? 0) > 50, "the first lane's name is written in its label column")
    }

    /// The middle of the widest part of `start…end` as drawn that nothing is drawn over (event and mark lines,
    /// ending crosses, break cuts), unless it is narrower than 8 px (a state too short to show at the picture's
    /// scale).
    static func clearX(from start: Double, to end: Double, picture: SVGTimeline) -> Double? {
        let axis = picture.axis
        var covered = picture.timeline.events.map { axis.x($0.atMs) }.map { ($0 - 3, $0 + 3) }
        for lane in picture.timeline.lanes {
            covered += lane.marks.map { axis.x($0.atMs) }.map { ($0 - 3, $0 + 3) }
            covered += lane.endings.map { axis.x($0.atMs) }.map { ($0 - 8, $0 + 8) }
        }
        covered += axis.breaks.map(SVGTimeline.breakMiddle).map { ($0 - 9, $0 + 9) }
        var pieces = [(axis.x(start), axis.x(end))]
        for (low, high) in covered {
            pieces = pieces.flatMap { piece in
                [(piece.0, min(piece.1, low)), (max(piece.0, high), piece.1)].filter { $0.1 > $0.0 }
            }
        }
        guard let widest = pieces.max(by: { $0.1 - $0.0 < $1.1 - $1.0 }), widest.1 - widest.0 >= 8 else {
            return nil
        }
        return ((widest.0 + widest.1) / 2).rounded()
    }

    @Test func theChromeTraceIsWellFormedForPerfetto() throws {
        let result = try runCLI(["trace", "--journal", Self.journal, "--format", "chrome"])
        #expect(result.status == 0, "\(result.err)")
        let document = try JSONParser.parse(result.out.trimmingSuffixNewline)
        let events = try #require(document["traceEvents"]?.arrayValue)
        var spans: [String: [(start: Double, end: Double)]] = [:]
        for event in events {
            let phase = try #require(event["ph"]?.stringValue)
            #expect(["M", "X", "i"].contains(phase), "\(event)")
            #expect(event["name"]?.stringValue != nil && event["pid"]?.int64Value != nil
                && event["tid"]?.int64Value != nil, "\(event)")
            if phase == "i" { #expect(["g", "p", "t"].contains(event["s"]?.stringValue ?? ""), "\(event)") }
            guard phase == "X" else { continue }
            let start = try #require(event["ts"]?.doubleValue)
            let duration = try #require(event["dur"]?.doubleValue)
            #expect(duration >= 0)
            spans["\(event["pid"]!)/\(event["tid"]!)", default: []].append((start, start + duration))
        }
        for (track, list) in spans {
            for (a, b) in zip(list, list.dropFirst()) {
                #expect(b.start >= a.end - 0.001, "complete events on track \(track) overlap: \(a) \(b)")
            }
        }
        let names = events.filter { $0["name"] == "process_name" }.compactMap { $0["args"]?["name"]?.stringValue }
        #expect(names.contains("com.example.DeepThoughts") && names.contains("com.example.ReturnMeTo"))
        let watchdog = events.first { $0["cat"] == "callback" && $0["args"]?["outcome"] == "watchdog" }
        #expect(watchdog?["args"]?["budgetMs"]?.doubleValue == 5000)
    }

    @Test func aLiveBrokersHistoryBecomesATimeline() throws {
        let broker = try BrokerFixture()
        let app = try broker.subscribe("com.example.Traced")
        defer { app.signal(SIGTERM) }
        #expect(try broker.reached("com.example.Traced", "active"))
        #expect(try broker.cli(["fire", "home"]).status == 0)
        let text = try broker.cli(["trace", "--format", "text", "--app", "com.example.Traced"])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.contains("com.example.Traced:"))
        #expect(text.out.contains("didEnterBackground inactive → background"), "\(text.out)")
        let svg = try broker.cli(["trace"])
        #expect(svg.out.contains(">com.example.Traced</text>") && svg.out.hasSuffix("</svg>\n"))
    }
}

extension TimelinePictureTests {
    @Test func withoutABrokerTraceDrawsTheLastRunOfTheDefaultJournal() throws {
        let state = makeTemporaryFolder("lifebus-timeline-state")
        defer { FolderEntries.removeTree(state) }
        let folder = "\(state)/lifebus"
        mkdir(folder, 0o700)
        let journal = "\(folder)/journal.jsonl"
        // Two broker runs in one file: an earlier one with another app, then the fixture's.
        let earlier = #"{"type":"mark","seq":1,"app":"com.example.Earlier","pid":1,"name":"x","data":null,"#
            + #""atMs":1,"wallMs":1}"#
        let text = try #require(readFile(Self.journal))
        let file = try #require(fopen(journal, "w"))
        fputs(earlier + "\n" + text, file)
        fclose(file)
        let result = try runCLI(
            ["trace", "--format", "text"],
            environment: ["XDG_STATE_HOME": state, "LIFEBUS_SOCKET": BrokerFixture.uniqueSocketPath("absent")]
        )
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("drawing the last run in the default journal \(journal)"), "\(result.err)")
        #expect(result.out.hasPrefix("timeline: 2 app(s)"), "\(result.out)")
        #expect(!result.out.contains("com.example.Earlier"))
    }
}

extension String {
    fileprivate var trimmingSuffixNewline: String {
        hasSuffix("\n") ? String(dropLast()) : self
    }
}

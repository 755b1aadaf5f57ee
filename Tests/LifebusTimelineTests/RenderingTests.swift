import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline
import Testing

/// The three renderings of a timeline: SVG, Chrome trace-event JSON, text.
@Suite struct RenderingTests {
    static func fixture() throws -> Timeline {
        Timeline(entries: try TimelineFixture.entries())
    }

    @Test func theSVGIsSelfContained() throws {
        let svg = SVGTimeline(try Self.fixture()).render()
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("href"))
        #expect(!svg.contains("@import"))
    }

    @Test func theSVGShowsEveryStateColourInItsLegendAndTheEndingsWithTheirReasons() throws {
        let svg = SVGTimeline(try Self.fixture()).render()
        for state in LifecycleState.allCases {
            #expect(svg.contains(TimelinePalette.color(of: state)))
            #expect(svg.contains(">\(state.rawValue)</text>"))
        }
        #expect(svg.contains("watchdog: didEnterBackground not answered within 5000 ms"))
        #expect(svg.contains("jetsam: killed for memory"))
        #expect(svg.contains(">state-saved</text>"))
        #expect(svg.contains(">call --answer</text>"))
        #expect(svg.contains("ms since the broker started"))
        #expect(svg.contains("class=\"break\""))
    }

    /// The fixture waits twice about 5 s (the watchdog's budget, then until the memory warning): two labelled
    /// breaks; the scene fixture, busy throughout, has none.
    @Test func theSVGCutsIdleGapsIntoLabelledBreaksAndOnlyThose() throws {
        let picture = SVGTimeline(try Self.fixture())
        #expect(picture.axis.breaks.map(\.label) == ["+5 s", "+5 s"])
        let svg = picture.render()
        #expect(svg.split(separator: "class=\"break\"", omittingEmptySubsequences: false).count - 1 == 2)
        #expect(svg.split(separator: ">+5 s</text>", omittingEmptySubsequences: false).count - 1 == 2)
        let scenes = SVGTimeline(Timeline(entries: try TimelineFixture.entries("scenes.jsonl")))
        #expect(scenes.axis.breaks.isEmpty)
        #expect(!scenes.render().contains("class=\"break\""))
    }

    @Test func theSVGEscapesWhatItQuotes() {
        let record = TransitionRecord(
            seq: 1, app: "com.example.A", pid: nil, callback: .didBecomeActive,
            cause: EventCause(eventID: 1, event: "<&\"'>"), from: .inactive, to: .active, firedMs: 0, sentMs: 1,
            answeredMs: 2, handlerMs: nil, budgetMs: 5, outcome: .ok, wallMs: 0
        )
        let svg = SVGTimeline(Timeline(entries: [.transition(record)])).render()
        #expect(svg.contains("&lt;&amp;&quot;&apos;&gt;"))
        #expect(!svg.contains("<&"))
    }

    @Test func overBudgetCallbacksAreRed() throws {
        let svg = SVGTimeline(try Self.fixture()).render()
        let red = "fill=\"\(TimelinePalette.failure)\""
        let redFills = svg.split(separator: red, omittingEmptySubsequences: false).count - 1
        // The unanswered didEnterBackground: its fill, its notch and its name; the watchdog's reason; the
        // jetsam's reason.
        #expect(redFills >= 5)
    }

    @Test func theChromeTraceHasATrackPerAppAndCompleteEventsForCallbacks() throws {
        let trace = ChromeTrace.document(try Self.fixture())
        let events = try #require(trace["traceEvents"]?.arrayValue)
        let processNames = events.filter { $0["name"]?.stringValue == "process_name" }
            .compactMap { $0["args"]?["name"]?.stringValue }
        #expect(processNames == [
            "device (controller events)", TimelineFixture.deepThoughts, TimelineFixture.returnMeTo,
        ])
        let callbacks = events.filter { $0["cat"]?.stringValue == "callback" }
        #expect(callbacks.count == 8)
        for callback in callbacks {
            #expect(callback["ph"] == "X")
            #expect(callback["dur"]?.doubleValue.map { $0 >= 0 } == true)
            #expect(callback["args"]?["budgetMs"]?.doubleValue != nil)
            #expect(callback["args"]?["outcome"]?.stringValue != nil)
        }
        let watchdog = try #require(callbacks.first { $0["args"]?["outcome"] == "watchdog" })
        #expect(watchdog["dur"]?.doubleValue == 5_000_000)
        #expect(watchdog["args"]?["overBudget"] == true)
        #expect(events.filter { $0["cat"] == "event" }.allSatisfy { $0["ph"] == "i" && $0["s"] == "g" })
        #expect(events.filter { $0["cat"] == "mark" }.count == 2)
        #expect(events.filter { $0["cat"] == "state" }.allSatisfy { $0["ph"] == "X" })
        #expect(trace["displayTimeUnit"] == "ms")
    }

    /// What the trace's text says once parsed, against the timeline it was drawn from: each lane is the process
    /// of its name, and its states, callbacks and marks are the lane's spans, runs and marks, in order, at their
    /// times (microseconds); the controller events are the device's.
    @Test func theChromeTraceRoundTripsThroughTheParser() throws {
        let timeline = try Self.fixture()
        let text = ChromeTrace.render(timeline)
        let document = try JSONParser.parse(text)
        #expect(document == ChromeTrace.document(timeline))
        let events = try #require(document["traceEvents"]?.arrayValue)
        var lanes: [Int64: String] = [:]
        var drawn: [String: [TraceSpan]] = [:]
        for event in events {
            let pid = try #require(event["pid"]?.int64Value)
            let name = try #require(event["name"]?.stringValue)
            if name == "process_name" { lanes[pid] = try #require(event["args"]?["name"]?.stringValue) }
            guard let category = event["cat"]?.stringValue else { continue }
            let start = try #require(event["ts"]?.doubleValue)
            let span = TraceSpan(category: category, name: name, startUs: start, durationUs: event["dur"]?.doubleValue)
            drawn["\(pid)", default: []].append(span)
        }
        #expect(lanes[ChromeTrace.devicePID] == "device (controller events)")
        #expect(drawn["\(ChromeTrace.devicePID)"] == timeline.events.map {
            TraceSpan(category: "event", name: $0.label, startUs: Self.us($0.atMs), durationUs: nil)
        })
        #expect(lanes.count == timeline.lanes.count + 1)
        #expect(!timeline.lanes.isEmpty && timeline.lanes.allSatisfy { !$0.spans.isEmpty && !$0.callbacks.isEmpty })
        for lane in timeline.lanes {
            let pid = try #require(lanes.first { $0.value == lane.app }?.key, "no process for \(lane.app)")
            let spans = drawn["\(pid)", default: []]
            #expect(spans.filter { $0.category == "state" } == lane.spans.map {
                TraceSpan(category: "state", name: $0.state.rawValue, startUs: Self.us($0.startMs),
                          durationUs: Self.us($0.endMs) - Self.us($0.startMs))
            }, "\(lane.app)'s states")
            #expect(spans.filter { $0.category == "callback" } == lane.callbacks.map {
                TraceSpan(category: "callback", name: $0.callback.rawValue, startUs: Self.us($0.sentMs),
                          durationUs: Self.us($0.sentMs + $0.drawnMs) - Self.us($0.sentMs))
            }, "\(lane.app)'s callbacks")
            #expect(spans.filter { $0.category == "mark" } == lane.marks.map {
                TraceSpan(category: "mark", name: $0.name, startUs: Self.us($0.atMs), durationUs: nil)
            }, "\(lane.app)'s marks")
            #expect(spans.filter { $0.category == "ending" } == lane.endings.map {
                TraceSpan(category: "ending", name: $0.outcome.rawValue, startUs: Self.us($0.atMs), durationUs: nil)
            }, "\(lane.app)'s endings")
        }
    }

    /// Milliseconds as the trace's whole microseconds.
    static func us(_ milliseconds: Double) -> Double {
        (milliseconds * 1_000).rounded()
    }

    /// Every `ts` and `dur` is a whole number of microseconds, written as a JSON integer; a duration is the
    /// difference of its rounded ends, so a callback of 1.2 µs sent at 1.0004 ms lasts from 1000 µs to 1002 µs.
    @Test func theChromeTraceTimesAreWholeMicroseconds() throws {
        let record = TransitionRecord(
            seq: 1, app: "com.example.A", pid: nil, callback: .didBecomeActive, cause: nil, from: .inactive,
            to: .active, firedMs: 1.0004, sentMs: 1.0004, answeredMs: 1.0016, handlerMs: nil, budgetMs: 5,
            outcome: .ok, wallMs: 0
        )
        for timeline in [try Self.fixture(), Timeline(entries: [.transition(record)]),
                         Timeline(entries: try TimelineFixture.entries("scenes.jsonl"))] {
            let text = ChromeTrace.render(timeline)
            let events = try #require(try JSONParser.parse(text)["traceEvents"]?.arrayValue)
            for event in events {
                for key in ["ts", "dur"] {
                    guard let value = event[key] else { continue }
                    #expect(value.int64Value != nil, "\(key) is not an integer: \(event)")
                }
            }
        }
        let events = try #require(ChromeTrace.document(Timeline(entries: [.transition(record)]))["traceEvents"]?
            .arrayValue)
        let callback = try #require(events.first { $0["cat"] == "callback" })
        #expect(callback["ts"] == .integer(1_000) && callback["dur"] == .integer(2))
    }

    /// One trace event as the round-trip test compares it: its category, name, start and duration (instants have
    /// none), in microseconds.
    struct TraceSpan: Equatable, CustomStringConvertible {
        var category: String
        var name: String
        var startUs: Double
        var durationUs: Double?

        var description: String { "\(category) \(name) @\(startUs) +\(durationUs.map { "\($0)" } ?? "-")" }
    }

    @Test func theTextTableListsEachLaneInTimeOrder() throws {
        let text = TimelineText.render(try Self.fixture())
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "timeline: 2 app(s), 9.75–12000.375 ms")
        #expect(lines.contains("    6001.125  didEnterBackground inactive → notRunning: no answer of 5000 ms budget, "
            + "watchdog OVER BUDGET (call --answer)"))
        #expect(lines.contains("   11001.125  ENDED watchdog: didEnterBackground not answered within 5000 ms"))
        #expect(lines.contains("     402.875  mark state-saved"))
    }
}

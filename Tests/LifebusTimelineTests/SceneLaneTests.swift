import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline
import Testing

/// A scene app's lane: a sub-lane per scene (its scene states, its scene callbacks, its session), the app's own lane
/// keeping the aggregate states and the app-level callbacks; an app-delegate app's lane has no sub-lanes.
@Suite struct SceneLaneTests {
    static func fixture() throws -> Timeline {
        Timeline(entries: try TimelineFixture.entries("scenes.jsonl"))
    }

    static func lane(_ app: String, in timeline: Timeline) throws -> Timeline.Lane {
        try #require(timeline.lanes.first { $0.app == app })
    }

    @Test func eachSceneHasASubLaneNamedWithItsSession() throws {
        let notes = try Self.lane(TimelineFixture.notes, in: try Self.fixture())
        #expect(notes.scenes.map(\.label) == ["scene 1 · session 1", "scene 2 · session 2", "scene 3 · session 2"])
        #expect(notes.callbacks.map(\.callback) == [
            .didFinishLaunching, .configurationForConnecting, .configurationForConnecting, .didDiscardSceneSessions,
        ])
        let reclaimed = notes.scenes[1]
        #expect(reclaimed.callbacks.map(\.callback) == [
            .willConnectTo, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
            .sceneDidEnterBackground, .stateRestorationActivity, .sceneDidDisconnect,
        ])
        #expect(reclaimed.spans.map(\.state) == [
            .unattached, .foregroundInactive, .foregroundActive, .foregroundInactive, .background, .unattached,
        ])
    }

    @Test func anAppDelegateAppsLaneHasNoSubLanes() throws {
        let timeline = try Self.fixture()
        #expect(try Self.lane(TimelineFixture.legacy, in: timeline).scenes.isEmpty)
        #expect(Timeline(entries: try TimelineFixture.entries()).lanes.allSatisfy(\.scenes.isEmpty))
    }

    @Test func aSceneEndsWhenItsDisconnectIsAnsweredOrItsAppEnds() throws {
        let notes = try Self.lane(TimelineFixture.notes, in: try Self.fixture())
        let disconnect = try #require(notes.scenes[1].callbacks.last)
        #expect(notes.scenes[1].spans.last?.endMs == disconnect.sentMs + (disconnect.latencyMs ?? 0))
        let crash = try #require(notes.endings.last)
        #expect(notes.scenes[2].spans.last?.endMs == crash.atMs)
        #expect(notes.scenes[2].spans.last?.state == .foregroundActive)
    }

    @Test func sceneSpansAreInOrderAndDoNotOverlap() throws {
        for lane in try Self.fixture().lanes {
            for scene in lane.scenes {
                for (a, b) in zip(scene.spans, scene.spans.dropFirst()) {
                    #expect(a.endMs <= b.startMs && a.startMs < a.endMs && a.state != b.state, "\(a) \(b)")
                }
            }
        }
    }

    @Test func aSceneAppsOwnLaneShowsEachAggregateStateOnce() throws {
        let notes = try Self.lane(TimelineFixture.notes, in: try Self.fixture())
        for (a, b) in zip(notes.spans, notes.spans.dropFirst()) {
            #expect(a.state != b.state, "\(a) then \(b)")
        }
    }

    @Test func theTextPrintsEachSceneWithItsStatesAndCallbacksAgainstTheirBudget() throws {
        let text = TimelineText.render(try Self.fixture())
        #expect(text.contains("\n  scene 2 · session 2:\n"))
        #expect(text.contains(
            "  1530.357  sceneDidEnterBackground foregroundInactive → background: 40.917 ms of 100 ms budget, ok (home)"
        ), "\(text)")
        #expect(text.contains("   1620.969  state unattached for 0.364 ms"))
        let beforeNotes = try #require(text.split(separator: "com.example.Notes:\n").first)
        #expect(!beforeNotes.contains("scene 1 ·"), "Legacy's lane has no scene: \(beforeNotes)")
    }

    @Test func theSVGDrawsEverySceneBarInItsSceneColourUnderItsApp() throws {
        let picture = SVGTimeline(try Self.fixture())
        let svg = picture.render()
        for state in SceneState.allCases {
            #expect(svg.contains("fill=\"\(TimelinePalette.color(of: state))\""))
            #expect(svg.contains(">\(state.rawValue)</text>"))
        }
        #expect(svg.contains(">scene 3 · session 2</text>"))
        #expect(svg.contains("com.example.Notes scene 2 · session 2: background from 1530.4 to"))
        #expect(svg.contains("sceneDidEnterBackground (scene 2 foregroundInactive → background): 40.9 ms of 100 ms"))
        let notes = try #require(picture.timeline.lanes.firstIndex { $0.app == TimelineFixture.notes })
        let appGauges = picture.timeline.lanes[notes].callbacks.indices.map {
            picture.gaugeTop(lane: notes, callback: $0)
        }
        #expect(picture.sceneLaneTop(lane: notes, scene: 0) > (appGauges.max() ?? 0) + SVGTimeline.gaugeHeight)
        for scene in 1..<3 {
            let above = picture.sceneBarTop(lane: notes, scene: scene - 1)
            #expect(picture.sceneLaneTop(lane: notes, scene: scene) > above)
        }
        #expect(picture.laneTop(notes + 1) > picture.sceneBarTop(lane: notes, scene: 2) + SVGTimeline.sceneBarHeight)
        #expect(picture.height > picture.lanesBottom + 100, "the axis and the legend under the lanes")
    }

    @Test func theChromeTraceHasTwoThreadsPerSceneCarryingItsSession() throws {
        let events = try #require(ChromeTrace.document(try Self.fixture())["traceEvents"]?.arrayValue)
        let threads = events.filter { $0["name"] == "thread_name" }.compactMap { $0["args"]?["name"]?.stringValue }
        #expect(threads.contains("scene 3 · session 2 states") && threads.contains("scene 3 · session 2 callbacks"))
        let sceneStates = events.filter { $0["cat"] == "sceneState" }
        #expect(sceneStates.allSatisfy { $0["tid"]?.int64Value.map { $0 >= ChromeTrace.sceneTID(0) } == true })
        let reclaim = try #require(events.first { $0["name"] == "stateRestorationActivity" })
        #expect(reclaim["tid"]?.int64Value == ChromeTrace.sceneTID(1) + 1)
        #expect(reclaim["args"]?["session"] == 2 && reclaim["args"]?["scene"] == 2)
        #expect(reclaim["args"]?["sceneFrom"] == "background")
    }
}

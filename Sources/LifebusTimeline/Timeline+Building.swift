import LifebusLifecycle
public import LifebusProtocol

extension Timeline {
    /// Arranges journal entries (in any order; they are sorted by `seq`) into lanes. With `apps` non-empty only
    /// those apps' entries count, and only events that caused one of their transitions.
    ///
    /// A state starts when the callback that leads into it is sent (the broker moves the app at once); the state
    /// before an app's first transition is drawn from the start of the timeline; the last one runs to its end.
    /// An app ended by the watchdog ends when its budget ran out; any other ending at the time the broker acted.
    /// A change the journal does not record (a journal from before suspensions were journaled) shows in the next
    /// transition's `from`; it is drawn from the end of the app's previous transition, the earliest it can have
    /// happened. A scene's sub-lane starts at its first transition, in that transition's scene state, and ends when its
    /// `sceneDidDisconnect` was answered or its app ended.
    public init(entries: [JournalEntry], apps: [String] = []) {
        let chosen = Set(apps)
        let sorted = entries.filter { chosen.isEmpty || $0.app.map(chosen.contains) == true }.sorted { $0.seq < $1.seq }
        var builder = Builder()
        for entry in sorted {
            switch entry {
            case .transition(let record): builder.add(record)
            case .mark(let record): builder.add(record)
            case .run: break  // where a broker run starts: nothing to draw in an app's lane
            case .process: break  // the process under the states: the states already show its effect
            case .task, .push, .protectedData: break  // the background life's records: not drawn yet (issue 28)
            }
        }
        self = builder.finish()
    }
}

/// Gathers one pass over the entries; `finish()` closes the spans.
private struct Builder {
    var lanes: [Timeline.Lane] = []
    var laneIndex: [String: Int] = [:]
    /// Per lane: the state changes seen so far, oldest first, each with the journal number that made it.
    var changes: [[(atMs: Double, seq: Int64, state: LifecycleState)]] = []
    /// Per lane: when its last transition ended (answered, or acted on).
    var settled: [Double] = []
    /// Per lane: whether the app lives the scene life cycle (it had a scene or a scene-only app callback).
    var sceneApp: [Bool] = []
    /// Per lane: its scenes' sub-lane positions, state changes and when each scene ended (`nil`: still connected).
    var sceneIndex: [[SceneID: Int]] = []
    var sceneChanges: [[[(atMs: Double, seq: Int64, state: SceneState)]]] = []
    var sceneEnds: [[Double?]] = []
    var events: [Timeline.Event] = []
    var eventIndex: [Int64: Int] = [:]
    var earliest = Double.infinity
    var latest = -Double.infinity

    mutating func lane(_ app: String) -> Int {
        if let index = laneIndex[app] { return index }
        laneIndex[app] = lanes.count
        lanes.append(Timeline.Lane(app: app))
        changes.append([])
        settled.append(-Double.infinity)
        sceneApp.append(false)
        sceneIndex.append([:])
        sceneChanges.append([])
        sceneEnds.append([])
        return lanes.count - 1
    }

    mutating func see(_ time: Double) {
        earliest = min(earliest, time)
        latest = max(latest, time)
    }

    mutating func add(_ record: TransitionRecord) {
        let index = lane(record.app)
        see(record.sentMs)
        if let answered = record.answeredMs { see(answered) }
        if let cause = record.cause { addEvent(cause, at: record.firedMs ?? record.sentMs) }
        let run = record.callback.map { callback in
            Timeline.CallbackRun(
                seq: record.seq, callback: callback, from: record.from, to: record.to, sentMs: record.sentMs,
                latencyMs: record.answeredMs.map { $0 - record.sentMs }, handlerMs: record.handlerMs,
                budgetMs: record.budgetMs, outcome: record.outcome, cause: record.cause, scene: record.scene
            )
        }
        var changeAt = record.sentMs
        if let ending = Self.ending(of: record) {
            lanes[index].endings.append(ending)
            see(ending.atMs)
            changeAt = ending.atMs
        }
        if let scene = record.scene {
            let position = sceneLane(scene, lane: index)
            if let run { lanes[index].scenes[position].callbacks.append(run) }
            sceneChange(lane: index, position: position, at: record.sentMs, seq: record.seq, to: scene.from)
            sceneChange(lane: index, position: position, at: changeAt, seq: record.seq, to: scene.to)
            if record.callback == .sceneDidDisconnect {
                sceneEnds[index][position] = max(record.answeredMs ?? changeAt, changeAt)
            }
        } else if let run {
            lanes[index].callbacks.append(run)
        }
        if record.to == .notRunning {
            for position in sceneEnds[index].indices where sceneEnds[index][position] == nil {
                sceneEnds[index][position] = changeAt
            }
        }
        if let last = changes[index].last, last.state != record.from {
            changes[index].append((atMs: max(settled[index], last.atMs), seq: record.seq, state: record.from))
        }
        if changes[index].isEmpty {
            changes[index].append((atMs: -Double.infinity, seq: record.seq, state: record.from))
        }
        if record.scene != nil || record.callback.map(Self.sceneAppCallbacks.contains) == true {
            sceneApp[index] = true
        }
        // A scene app's scene callbacks mostly leave its aggregate state as it was: that is no new span.
        if !sceneApp[index] || changes[index].last?.state != record.to {
            changes[index].append((atMs: changeAt, seq: record.seq, state: record.to))
        }
        settled[index] = max(record.answeredMs ?? changeAt, changeAt)
    }

    /// The position of `scene`'s sub-lane in lane `index`, made on its first transition.
    mutating func sceneLane(_ scene: TransitionScene, lane index: Int) -> Int {
        if let position = sceneIndex[index][scene.scene] { return position }
        let position = lanes[index].scenes.count
        sceneIndex[index][scene.scene] = position
        lanes[index].scenes.append(Timeline.SceneLane(scene: scene.scene, session: scene.session))
        sceneChanges[index].append([])
        sceneEnds[index].append(nil)
        return position
    }

    /// Records that a scene is in `state` from `atMs` on, unless it already is.
    mutating func sceneChange(lane index: Int, position: Int, at atMs: Double, seq: Int64, to state: SceneState) {
        guard sceneChanges[index][position].last?.state != state else { return }
        sceneChanges[index][position].append((atMs: atMs, seq: seq, state: state))
    }

    mutating func add(_ record: MarkRecord) {
        let index = lane(record.app)
        see(record.atMs)
        lanes[index].marks.append(Timeline.Mark(seq: record.seq, name: record.name, atMs: record.atMs))
    }

    mutating func addEvent(_ cause: EventCause, at time: Double) {
        see(time)
        if let index = eventIndex[cause.eventID] {
            events[index].atMs = min(events[index].atMs, time)
            return
        }
        eventIndex[cause.eventID] = events.count
        events.append(Timeline.Event(eventID: cause.eventID, label: cause.event, atMs: time))
    }

    /// The app-level callbacks only a scene app receives.
    static let sceneAppCallbacks: Set<LifecycleCallback> = [.configurationForConnecting, .didDiscardSceneSessions]

    /// The ending a transition records, if it is one (the app went to `notRunning` other than by exiting cleanly).
    static func ending(of record: TransitionRecord) -> Timeline.Ending? {
        guard record.to == .notRunning, record.outcome != .ok, record.outcome != .late else { return nil }
        let during = record.callback.map { " during \($0.rawValue)" } ?? ""
        let reason: String
        let atMs: Double
        switch record.outcome {
        case .watchdog:
            atMs = record.sentMs + record.budgetMs
            let what = record.callback.map { "\($0.rawValue) not answered" } ?? "background task held"
            reason = "watchdog: \(what) within \(Self.format(record.budgetMs)) ms"
        case .jetsam:
            atMs = record.sentMs
            reason = "jetsam: killed for memory\(during)"
        case .crashed:
            atMs = record.sentMs
            reason = "crashed\(during)"
        case .disconnected:
            atMs = record.sentMs
            reason = "disconnected: it did not read what it was sent\(during)"
        case .killed, .ok, .late:
            atMs = record.sentMs
            reason = "killed" + (record.cause.map { " by \($0.event)" } ?? "") + during
        }
        return Timeline.Ending(seq: record.seq, atMs: atMs, outcome: record.outcome, reason: reason)
    }

    static func format(_ milliseconds: Double) -> String {
        milliseconds == milliseconds.rounded() ? String(Int64(milliseconds)) : String(milliseconds)
    }

    mutating func finish() -> Timeline {
        guard earliest <= latest else { return Timeline(lanes: [], events: [], startMs: 0, endMs: 0) }
        for index in lanes.indices {
            let list = changes[index]
            for (position, change) in list.enumerated() {
                let start = max(change.atMs, earliest)
                let end = position + 1 < list.count ? max(list[position + 1].atMs, start) : latest
                guard end > start else { continue }
                lanes[index].spans.append(
                    Timeline.StateSpan(seq: change.seq, state: change.state, startMs: start, endMs: end))
            }
            for position in lanes[index].scenes.indices {
                let list = sceneChanges[index][position]
                let last = sceneEnds[index][position] ?? latest
                for (number, change) in list.enumerated() {
                    let end = number + 1 < list.count ? max(list[number + 1].atMs, change.atMs) : max(last, change.atMs)
                    guard end > change.atMs else { continue }
                    lanes[index].scenes[position].spans.append(
                        Timeline.SceneSpan(seq: change.seq, state: change.state, startMs: change.atMs, endMs: end))
                }
            }
        }
        events.sort { ($0.atMs, $0.eventID) < ($1.atMs, $1.eventID) }
        return Timeline(lanes: lanes, events: events, startMs: earliest, endMs: latest)
    }
}

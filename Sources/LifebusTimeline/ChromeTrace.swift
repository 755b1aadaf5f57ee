public import LifebusJSON

/// A timeline as Chrome trace-event JSON, the format Perfetto (ui.perfetto.dev) and `chrome://tracing` open.
///
/// Stateless. Layout: process 1 is the device, carrying the controller events as global instant events and, on its
/// thread `protected data` (`lockTID`), one `X` event per stretch protected data was unavailable; each app
/// is a process of its own (pid 2, 3, … in lane order, named by `process_name` metadata) with four threads:
/// `states` (one complete `X` event per state span), `callbacks` (one `X` event per callback, its duration the
/// latency, `args` carrying the budget, latency, handler time, outcome, cause and a push's `fetchResult`),
/// `marks & endings` (instant events, a push's steps among them) and `background tasks` (per `BGTask` run an `X`
/// event `pending ID` from its submission to its launch and one named for its identifier from its launch to its end
/// or the trace's, `args` carrying its kind, budget, outcome and success; an instant `expiring ID`), and per scene of
/// a scene app two more threads named for it (`scene 2 · session 1 states` at tid `sceneTID(position)`, its
/// `callbacks` at the next tid; `args` carry the scene, session and scene states).
/// Timestamps (`ts`) and durations (`dur`) are whole microseconds (JSON integers) since the broker started; a
/// duration is the difference of its rounded ends, so that events that touch still touch.
public enum ChromeTrace {
    public static let devicePID: Int64 = 1
    public static let statesTID: Int64 = 1
    public static let callbacksTID: Int64 = 2
    public static let marksTID: Int64 = 3
    public static let tasksTID: Int64 = 4
    /// The device's thread of protected-data stretches.
    public static let lockTID: Int64 = 1

    /// The states thread of the scene at `position` in its lane (its callbacks' thread is the next tid).
    public static func sceneTID(_ position: Int) -> Int64 {
        100 + 2 * Int64(position)
    }

    /// The trace document: `{"traceEvents":[…],"displayTimeUnit":"ms","otherData":{…}}`.
    public static func document(_ timeline: Timeline) -> JSONValue {
        var events: [JSONValue] = [
            metadata("process_name", pid: devicePID, tid: 0, name: "device (controller events)"),
            metadata("process_sort_index", pid: devicePID, tid: 0, sortIndex: 0),
        ]
        for event in timeline.events {
            events.append([
                "name": .string(event.label), "cat": "event", "ph": "i", "s": "g", "ts": micro(event.atMs),
                "pid": .integer(devicePID), "tid": .integer(0), "args": ["eventID": .integer(event.eventID)],
            ])
        }
        if !timeline.locks.isEmpty {
            events.append(metadata("thread_name", pid: devicePID, tid: lockTID, name: "protected data"))
        }
        for lock in timeline.locks {
            events.append([
                "name": "protected data unavailable", "cat": "protectedData", "ph": "X", "ts": micro(lock.startMs),
                "dur": duration(from: lock.startMs, to: lock.endMs), "pid": .integer(devicePID),
                "tid": .integer(lockTID), "args": ["seq": .integer(lock.seq), "reopened": .bool(lock.reopened)],
            ])
        }
        for (index, lane) in timeline.lanes.enumerated() {
            events += laneEvents(lane, pid: devicePID + 1 + Int64(index), sortIndex: Int64(index) + 1,
                                 endMs: timeline.endMs)
        }
        return [
            "traceEvents": .array(events),
            "displayTimeUnit": "ms",
            "otherData": ["source": "lifebus", "clock": "ms since the broker started, as microseconds"],
        ]
    }

    /// The document as compact JSON text.
    public static func render(_ timeline: Timeline) -> String {
        document(timeline).jsonText
    }

    private static func laneEvents(_ lane: Timeline.Lane, pid: Int64, sortIndex: Int64, endMs: Double) -> [JSONValue] {
        var events: [JSONValue] = [
            metadata("process_name", pid: pid, tid: 0, name: lane.app),
            metadata("process_sort_index", pid: pid, tid: 0, sortIndex: sortIndex),
            metadata("thread_name", pid: pid, tid: statesTID, name: "states"),
            metadata("thread_name", pid: pid, tid: callbacksTID, name: "callbacks"),
            metadata("thread_name", pid: pid, tid: marksTID, name: "marks & endings"),
            metadata("thread_name", pid: pid, tid: tasksTID, name: "background tasks"),
        ]
        for span in lane.spans {
            events.append([
                "name": .string(span.state.rawValue), "cat": "state", "ph": "X", "ts": micro(span.startMs),
                "dur": duration(from: span.startMs, to: span.endMs), "pid": .integer(pid), "tid": .integer(statesTID),
                "args": ["state": .string(span.state.rawValue)],
            ])
        }
        events += lane.callbacks.map { callbackEvent($0, pid: pid, tid: callbacksTID) }
        for mark in lane.marks {
            events.append([
                "name": .string(mark.name), "cat": "mark", "ph": "i", "s": "t", "ts": micro(mark.atMs),
                "pid": .integer(pid), "tid": .integer(marksTID), "args": ["seq": .integer(mark.seq)],
            ])
        }
        for ending in lane.endings {
            events.append([
                "name": .string(ending.outcome.rawValue), "cat": "ending", "ph": "i", "s": "p",
                "ts": micro(ending.atMs), "pid": .integer(pid), "tid": .integer(marksTID),
                "args": ["seq": .integer(ending.seq), "reason": .string(ending.reason)],
            ])
        }
        for push in lane.pushes {
            events.append([
                "name": .string(push.text), "cat": "push", "ph": "i", "s": "t", "ts": micro(push.atMs),
                "pid": .integer(pid), "tid": .integer(marksTID), "args": ["seq": .integer(push.seq)],
            ])
        }
        for task in lane.tasks {
            events += taskEvents(task, pid: pid, endMs: endMs)
        }
        for (position, scene) in lane.scenes.enumerated() {
            events += sceneEvents(scene, pid: pid, tid: sceneTID(position))
        }
        return events
    }

    /// A task run's events on the `background tasks` thread: pending, running, the expiration handler's call.
    private static func taskEvents(_ task: Timeline.TaskRun, pid: Int64, endMs: Double) -> [JSONValue] {
        var events: [JSONValue] = []
        let args: JSONValue = [
            "seq": .integer(task.seq), "identifier": .string(task.identifier), "kind": .string(task.kind.rawValue),
            "budgetMs": task.budgetMs.map(JSONValue.double) ?? .null, "outcome": .string(task.outcome.rawValue),
            "success": task.success.map(JSONValue.bool) ?? .null, "overBudget": .bool(task.overBudget),
        ]
        if let submitted = task.submittedMs {
            let launched = task.launchedMs ?? task.endMs ?? endMs
            events.append([
                "name": .string("pending \(task.identifier)"), "cat": "taskPending", "ph": "X", "ts": micro(submitted),
                "dur": duration(from: submitted, to: launched), "pid": .integer(pid), "tid": .integer(tasksTID),
                "args": args,
            ])
        }
        if let launched = task.launchedMs {
            var event: JSONObject = [
                "name": .string(task.identifier), "cat": "task", "ph": "X", "ts": micro(launched),
                "dur": duration(from: launched, to: task.endMs ?? endMs), "pid": .integer(pid),
                "tid": .integer(tasksTID), "args": args,
            ]
            if task.overBudget { event.append("cname", "terrible") }
            events.append(.object(event))
        }
        if let expiring = task.expiringMs {
            events.append([
                "name": .string("expiring \(task.identifier)"), "cat": "task", "ph": "i", "s": "t",
                "ts": micro(expiring), "pid": .integer(pid), "tid": .integer(tasksTID), "args": args,
            ])
        }
        return events
    }

    /// A scene's two threads: its scene states and its scene callbacks.
    private static func sceneEvents(_ scene: Timeline.SceneLane, pid: Int64, tid: Int64) -> [JSONValue] {
        var events: [JSONValue] = [
            metadata("thread_name", pid: pid, tid: tid, name: "\(scene.label) states"),
            metadata("thread_name", pid: pid, tid: tid + 1, name: "\(scene.label) callbacks"),
        ]
        for span in scene.spans {
            events.append([
                "name": .string(span.state.rawValue), "cat": "sceneState", "ph": "X", "ts": micro(span.startMs),
                "dur": duration(from: span.startMs, to: span.endMs), "pid": .integer(pid), "tid": .integer(tid),
                "args": [
                    "sceneState": .string(span.state.rawValue), "scene": .integer(Int64(scene.scene.number)),
                    "session": .integer(Int64(scene.session.number)),
                ],
            ])
        }
        events += scene.callbacks.map { callbackEvent($0, pid: pid, tid: tid + 1) }
        return events
    }

    /// One callback as a complete event, its duration the latency; a scene callback's `args` add its scene.
    private static func callbackEvent(_ run: Timeline.CallbackRun, pid: Int64, tid: Int64) -> JSONValue {
        var args: JSONObject = [
            "seq": .integer(run.seq), "from": .string(run.from.rawValue), "to": .string(run.to.rawValue),
            "budgetMs": .double(run.budgetMs), "latencyMs": run.latencyMs.map(JSONValue.double) ?? .null,
            "handlerMs": run.handlerMs.map(JSONValue.double) ?? .null, "outcome": .string(run.outcome.rawValue),
            "overBudget": .bool(run.overBudget), "cause": run.cause.map { .string($0.event) } ?? .null,
        ]
        if let result = run.fetchResult { args.append("fetchResult", .string(result.rawValue)) }
        if let scene = run.scene {
            args.append("scene", .integer(Int64(scene.scene.number)))
            args.append("session", .integer(Int64(scene.session.number)))
            args.append("sceneFrom", .string(scene.from.rawValue))
            args.append("sceneTo", .string(scene.to.rawValue))
        }
        var event: JSONObject = [
            "name": .string(run.callback.rawValue), "cat": "callback", "ph": "X", "ts": micro(run.sentMs),
            "dur": duration(from: run.sentMs, to: run.sentMs + run.drawnMs), "pid": .integer(pid),
            "tid": .integer(tid), "args": .object(args),
        ]
        if run.overBudget { event.append("cname", "terrible") }
        return .object(event)
    }

    private static func metadata(_ kind: String, pid: Int64, tid: Int64, name: String) -> JSONValue {
        ["name": .string(kind), "ph": "M", "pid": .integer(pid), "tid": .integer(tid), "args": ["name": .string(name)]]
    }

    private static func metadata(_ kind: String, pid: Int64, tid: Int64, sortIndex: Int64) -> JSONValue {
        [
            "name": .string(kind), "ph": "M", "pid": .integer(pid), "tid": .integer(tid),
            "args": ["sort_index": .integer(sortIndex)],
        ]
    }

    /// Milliseconds as the trace's whole microseconds.
    private static func micro(_ milliseconds: Double) -> JSONValue {
        .integer(microseconds(milliseconds))
    }

    /// A duration in whole microseconds: the difference of its rounded ends, so that an event ends exactly where
    /// the next one on its track starts.
    private static func duration(from start: Double, to end: Double) -> JSONValue {
        .integer(microseconds(end) - microseconds(start))
    }

    private static func microseconds(_ milliseconds: Double) -> Int64 {
        Int64((milliseconds * 1_000).rounded())
    }
}

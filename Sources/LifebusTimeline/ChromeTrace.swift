public import LifebusJSON

/// A timeline as Chrome trace-event JSON, the format Perfetto (ui.perfetto.dev) and `chrome://tracing` open.
///
/// Stateless. Layout: process 1 is the device, carrying the controller events as global instant events; each app
/// is a process of its own (pid 2, 3, … in lane order, named by `process_name` metadata) with three threads:
/// `states` (one complete `X` event per state span), `callbacks` (one `X` event per callback, its duration the
/// latency, `args` carrying the budget, latency, handler time, outcome and cause) and `marks & endings` (instant
/// events). Timestamps are microseconds since the broker started.
public enum ChromeTrace {
    public static let devicePID: Int64 = 1
    public static let statesTID: Int64 = 1
    public static let callbacksTID: Int64 = 2
    public static let marksTID: Int64 = 3

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
        for (index, lane) in timeline.lanes.enumerated() {
            events += laneEvents(lane, pid: devicePID + 1 + Int64(index), sortIndex: Int64(index) + 1)
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

    private static func laneEvents(_ lane: Timeline.Lane, pid: Int64, sortIndex: Int64) -> [JSONValue] {
        var events: [JSONValue] = [
            metadata("process_name", pid: pid, tid: 0, name: lane.app),
            metadata("process_sort_index", pid: pid, tid: 0, sortIndex: sortIndex),
            metadata("thread_name", pid: pid, tid: statesTID, name: "states"),
            metadata("thread_name", pid: pid, tid: callbacksTID, name: "callbacks"),
            metadata("thread_name", pid: pid, tid: marksTID, name: "marks & endings"),
        ]
        for span in lane.spans {
            events.append([
                "name": .string(span.state.rawValue), "cat": "state", "ph": "X", "ts": micro(span.startMs),
                "dur": micro(span.endMs - span.startMs), "pid": .integer(pid), "tid": .integer(statesTID),
                "args": ["state": .string(span.state.rawValue)],
            ])
        }
        for run in lane.callbacks {
            var event: JSONObject = [
                "name": .string(run.callback.rawValue), "cat": "callback", "ph": "X", "ts": micro(run.sentMs),
                "dur": micro(run.drawnMs), "pid": .integer(pid), "tid": .integer(callbacksTID),
                "args": [
                    "seq": .integer(run.seq), "from": .string(run.from.rawValue), "to": .string(run.to.rawValue),
                    "budgetMs": .double(run.budgetMs), "latencyMs": run.latencyMs.map(JSONValue.double) ?? .null,
                    "handlerMs": run.handlerMs.map(JSONValue.double) ?? .null, "outcome": .string(run.outcome.rawValue),
                    "overBudget": .bool(run.overBudget), "cause": run.cause.map { .string($0.event) } ?? .null,
                ],
            ]
            if run.overBudget { event.append("cname", "terrible") }
            events.append(.object(event))
        }
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
        return events
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

    /// Milliseconds as the trace's microseconds.
    private static func micro(_ milliseconds: Double) -> JSONValue {
        .double(milliseconds * 1_000)
    }
}

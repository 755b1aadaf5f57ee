/// A timeline as plain text for a terminal or an agent: the events, then each app's lane in time order — states
/// with how long they lasted, callbacks with latency against budget and outcome, marks, endings — and under a scene
/// app's lane a block per scene (`  scene 1 · session 1:`) with the scene's states and its scene callbacks.
///
/// Stateless. Times are ms since the broker started, with up to three decimals; one line per item. Items at the same
/// instant (every instant of a manual clock that did not advance) print in journal order (`seq`): a mark or an ending
/// journaled before a relaunch's callbacks prints before them; a state prints before the callback that entered it.
public enum TimelineText {
    public static func render(_ timeline: Timeline) -> String {
        guard !timeline.lanes.isEmpty else { return "no transitions recorded\n" }
        let range = "\(format(timeline.startMs))–\(format(timeline.endMs)) ms"
        var lines = ["timeline: \(timeline.lanes.count) app(s), \(range)"]
        if !timeline.events.isEmpty {
            lines.append("events:")
            for event in timeline.events {
                lines.append(row(event.atMs, "#\(event.eventID) \(event.label)"))
            }
        }
        for lane in timeline.lanes {
            lines.append("\(lane.app):")
            var items: [(atMs: Double, seq: Int64, order: Int, text: String)] = []
            for span in lane.spans {
                let length = format(span.endMs - span.startMs)
                items.append((span.startMs, span.seq, 0, "state \(span.state.rawValue) for \(length) ms"))
            }
            for run in lane.callbacks {
                items.append((run.sentMs, run.seq, 1, callbackText(run)))
            }
            for mark in lane.marks {
                items.append((mark.atMs, mark.seq, 2, "mark \(mark.name)"))
            }
            for ending in lane.endings {
                items.append((ending.atMs, ending.seq, 3, "ENDED \(ending.reason)"))
            }
            items.sort { ($0.atMs, $0.seq, $0.order) < ($1.atMs, $1.seq, $1.order) }
            lines += items.map { row($0.atMs, $0.text) }
            for scene in lane.scenes {
                lines.append("  \(scene.label):")
                var sceneItems: [(atMs: Double, seq: Int64, order: Int, text: String)] = []
                for span in scene.spans {
                    let length = format(span.endMs - span.startMs)
                    sceneItems.append((span.startMs, span.seq, 0, "state \(span.state.rawValue) for \(length) ms"))
                }
                for run in scene.callbacks {
                    sceneItems.append((run.sentMs, run.seq, 1, callbackText(run)))
                }
                sceneItems.sort { ($0.atMs, $0.seq, $0.order) < ($1.atMs, $1.seq, $1.order) }
                lines += sceneItems.map { row($0.atMs, $0.text) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A callback with its move (a scene callback's: the scene's states), latency against budget, outcome, cause.
    private static func callbackText(_ run: Timeline.CallbackRun) -> String {
        let latency = run.latencyMs.map { "\(format($0)) ms" } ?? "no answer"
        let cause = run.cause.map { " (\($0.event))" } ?? ""
        let move = run.scene.map { "\($0.from.rawValue) → \($0.to.rawValue)" }
            ?? "\(run.from.rawValue) → \(run.to.rawValue)"
        return "\(run.callback.rawValue) \(move): \(latency) of \(format(run.budgetMs)) ms budget, "
            + run.outcome.rawValue + (run.overBudget ? " OVER BUDGET" : "") + cause
    }

    private static func row(_ atMs: Double, _ text: String) -> String {
        let time = format(atMs)
        return String(repeating: " ", count: max(0, 12 - time.count)) + time + "  " + text
    }

    /// Milliseconds with at most three decimals, no trailing zeros.
    public static func format(_ value: Double) -> String {
        let rounded = (value * 1_000).rounded() / 1_000
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }
}

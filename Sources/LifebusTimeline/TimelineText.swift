/// A timeline as plain text for a terminal or an agent: the events, the stretches protected data was unavailable,
/// then each app's lane in time order — states with how long they lasted, callbacks with latency against budget and
/// outcome (a push's with its fetch result), marks, endings, each step of its `BGTask`s (`task ID launched, budget
/// 30000 ms`, `task ID EXPIRED after 35000 ms: app killed`) and of its pushes — and under a scene app's lane a
/// block per scene (`  scene 1 · session 1:`) with the scene's states and its scene callbacks.
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
        if !timeline.locks.isEmpty {
            lines.append("protected data:")
            for lock in timeline.locks {
                let until = lock.reopened ? "available again after" : "still unavailable at the end, after"
                let length = format(lock.endMs - lock.startMs)
                lines.append(row(lock.startMs, "UNAVAILABLE (device locked); \(until) \(length) ms"))
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
            for task in lane.tasks {
                items += taskLines(task).map { ($0.atMs, task.seq, 4, $0.text) }
            }
            for push in lane.pushes {
                items.append((push.atMs, push.seq, 5, push.event == .late ? push.text.uppercased() : push.text))
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

    /// A task run's steps: each with its time.
    private static func taskLines(_ task: Timeline.TaskRun) -> [(atMs: Double, text: String)] {
        let name = "task \(task.identifier)"
        var lines: [(atMs: Double, text: String)] = []
        if let submitted = task.submittedMs { lines.append((submitted, "\(name) \(task.kind.rawValue) submitted")) }
        if let launched = task.launchedMs {
            let budget = task.budgetMs.map { "budget \(format($0)) ms" } ?? "no fixed budget"
            lines.append((launched, "\(name) launched, \(budget)"))
        }
        if let expiring = task.expiringMs {
            let after = task.launchedMs.map { " after \(format(expiring - $0)) ms" } ?? ""
            lines.append((expiring, "\(name) expiring\(after)"))
        }
        if let end = task.endMs {
            let after = task.ranMs.map { " after \(format($0)) ms" } ?? ""
            let text = task.outcome == .expired ? "EXPIRED\(after): app killed"
                : "\(task.outcomeText)\(after)" + (task.overBudget ? " OVER BUDGET" : "")
            lines.append((end, "\(name) \(text)"))
        }
        return lines
    }

    /// A callback with its move (a scene callback's: the scene's states), latency against budget, outcome, cause.
    private static func callbackText(_ run: Timeline.CallbackRun) -> String {
        let latency = run.latencyMs.map { "\(format($0)) ms" } ?? "no answer"
        let cause = run.cause.map { " (\($0.event))" } ?? ""
        let move = run.scene.map { "\($0.from.rawValue) → \($0.to.rawValue)" }
            ?? "\(run.from.rawValue) → \(run.to.rawValue)"
        let result = run.fetchResult.map { " → \($0.rawValue)" } ?? ""
        return "\(run.callback.rawValue) \(move): \(latency) of \(format(run.budgetMs)) ms budget, "
            + run.outcome.rawValue + (run.overBudget ? " OVER BUDGET" : "") + result + cause
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

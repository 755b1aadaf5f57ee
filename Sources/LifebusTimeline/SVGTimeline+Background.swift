import LifebusLifecycle
import LifebusProtocol

/// Drawing the background life: an app's task rows (named in the label column `task IDENTIFIER`), its deferred
/// pushes, and the bands where protected data was unavailable.
extension SVGTimeline {
    /// The lane's task identifiers, in order of their first run: one row each.
    static func taskIdentifiers(_ tasks: [Timeline.TaskRun]) -> [String] {
        var identifiers: [String] = []
        for task in tasks where !identifiers.contains(task.identifier) {
            identifiers.append(task.identifier)
        }
        return identifiers
    }

    /// The names of lane `index`'s task rows, with a line above each.
    func drawTaskHeadings(_ lane: Timeline.Lane, index: Int, into canvas: inout SVGCanvas) {
        for (row, identifier) in Self.taskIdentifiers(lane.tasks).enumerated() {
            let top = lanes[index].taskRowTops[row]
            canvas.svg.element("line", ["x1": 24, "y1": .number(top), "x2": .number(axis.endX + Self.gaugeWidth),
                                        "y2": .number(top), "stroke": "#e0e0e0", "stroke-width": 1])
            let room = Self.laneLabelWidth - 34 - TextBox.width(of: "task ", fontSize: 11)
            let fitted = TextBox.fitted(identifier, width: room, fontSize: 11)
            canvas.label("task \(fitted)", fontSize: 11, spots: [.init(x: 24, y: top + Self.taskBarOffset + 10)],
                         title: fitted == identifier ? nil : "task \(identifier)")
        }
    }

    /// One task run: the wait from its submission dashed, its budget as the outline from its launch, the time it ran
    /// as the fill (red when it failed its budget), the expiration handler's call as a tick, an expiry's kill as a
    /// cross; its outcome and how long it ran as the label, right of the bar or under it (its outcome alone where
    /// only that fits).
    func drawTask(_ task: Timeline.TaskRun, app: String, lane: Int, position: Int, into canvas: inout SVGCanvas) {
        let top = taskRowTop(lane: lane, task: position)
        let barTop = top + Self.taskBarOffset
        let middle = barTop + Self.taskBarHeight / 2
        let lastMs = timeline.endMs
        canvas.svg.group(["class": "task"], title: "\(app) " + Self.taskTitle(task))
        if let submitted = task.submittedMs {
            let x = axis.x(submitted)
            let until = axis.x(task.launchedMs ?? task.endMs ?? lastMs)
            canvas.svg.element("line", ["x1": .number(x), "y1": .number(barTop), "x2": .number(x),
                                        "y2": .number(barTop + Self.taskBarHeight),
                                        "stroke": .string(TimelinePalette.budget), "stroke-width": 1.5])
            canvas.svg.element("line", ["x1": .number(x), "y1": .number(middle), "x2": .number(max(x, until)),
                                        "y2": .number(middle), "stroke": .string(TimelinePalette.budget),
                                        "stroke-width": 1, "stroke-dasharray": "2 3"])
        }
        var labelX = axis.x(task.submittedMs ?? lastMs)
        if let launched = task.launchedMs {
            let x = axis.x(launched)
            let budgetEnd = axis.x(task.budgetMs.map { min(launched + $0, lastMs) } ?? (task.endMs ?? lastMs))
            let end = axis.x(task.endMs ?? lastMs)
            canvas.svg.element("rect", ["x": .number(x), "y": .number(barTop), "width": .number(max(2, budgetEnd - x)),
                                        "height": .number(Self.taskBarHeight), "fill": "#ffffff",
                                        "stroke": .string(TimelinePalette.budget), "stroke-width": 1])
            let fill = task.overBudget ? TimelinePalette.failure : TimelinePalette.used
            canvas.svg.element("rect", ["x": .number(x), "y": .number(barTop + 2), "width": .number(max(1.5, end - x)),
                                        "height": .number(Self.taskBarHeight - 4), "fill": .string(fill)])
            labelX = max(end, budgetEnd)
        }
        if let expiring = task.expiringMs {
            let x = axis.x(expiring)
            canvas.svg.element("line", ["x1": .number(x), "y1": .number(barTop - 3), "x2": .number(x),
                                        "y2": .number(barTop + Self.taskBarHeight + 3),
                                        "stroke": .string(TimelinePalette.expiring), "stroke-width": 2.5])
        }
        if task.outcome == .expired, let end = task.endMs {
            Self.cross(at: axis.x(end), y: middle, color: TimelinePalette.failure, into: &canvas.svg)
            labelX = max(labelX, axis.x(end) + 5)
        }
        let start = axis.x(task.launchedMs ?? task.submittedMs ?? lastMs)
        var spots: [(spot: TextPlacer.Spot, room: Double)] = [
            (.init(x: labelX + 6, y: barTop + 10), width - labelX - 10),
            (.init(x: labelX, y: top + 31, anchor: .end), labelX - Self.laneLabelWidth - 5),
        ]
        // Under the bar from the start of each stretch between its breaks, the last stretch first: a bar cut by
        // breaks has no room for its label across them.
        let starts = [start] + axis.breaks.map { Self.breakMiddle($0) + 10 }.filter { $0 > start && $0 < labelX }
        for x in starts.reversed() {
            let cut = axis.breaks.map { Self.breakMiddle($0) - 10 }.first { $0 > x } ?? width - 5
            spots.append((.init(x: x + 2, y: top + 31), cut - x - 2))
        }
        // The whole label anywhere, else its outcome alone anywhere, else the label shortened.
        let outcome = spots.map { (task.outcomeText, $0.spot) }
        let choices = SVGCanvas.shortenable(Self.taskLabel(task), fontSize: 9, spots: spots)
        let wholes = choices.prefix(spots.count)
        canvas.label(Array(wholes) + outcome + choices.dropFirst(spots.count), fontSize: 9,
                     fill: task.overBudget ? TimelinePalette.failure : TimelinePalette.text)
        canvas.svg.end("g")
    }

    /// `expired: app killed · ran 35 s of 30 s`, `completed · ran 1.2 s`, `pending`: a task bar's label.
    static func taskLabel(_ task: Timeline.TaskRun) -> String {
        guard let ran = task.ranMs else { return task.outcomeText }
        let budget = task.budgetMs.map { " of \(TimeAxis.duration($0))" } ?? ""
        return "\(task.outcomeText) · ran \(TimeAxis.duration(ran))\(budget)"
    }

    /// Every time of a task run, for its hover title.
    static func taskTitle(_ task: Timeline.TaskRun) -> String {
        var parts = ["task \(task.identifier) (\(task.kind.rawValue))"]
        if let submitted = task.submittedMs { parts.append("submitted at \(milliseconds(submitted)) ms") }
        if let launched = task.launchedMs { parts.append("launched at \(milliseconds(launched)) ms") }
        parts.append(task.budgetMs.map { "budget \(milliseconds($0)) ms" } ?? "no fixed budget")
        if let expiring = task.expiringMs { parts.append("expiring at \(milliseconds(expiring)) ms") }
        if let end = task.endMs { parts.append("\(task.outcomeText) at \(milliseconds(end)) ms") }
        else { parts.append(task.outcomeText) }
        return parts.joined(separator: ", ")
    }

    /// Each push that did not reach the app when it came as a dashed tick over the lane's state bar, labelled with
    /// its step above it: one held (`push deferred`, the budget's colour) and one dropped (`push discarded`: a
    /// force-quit app's, or a held one lost with its process; the failure's colour).
    func drawUndeliveredPushes(_ lane: Timeline.Lane, index: Int, into canvas: inout SVGCanvas) {
        let top = laneTop(index)
        let barTop = stateBarTop(lane: index)
        for push in lane.pushes where push.event == .deferred || push.event == .discarded {
            let x = axis.x(push.atMs)
            let colour = push.event == .discarded ? TimelinePalette.failure : TimelinePalette.budget
            canvas.svg.group(["class": "push"], title: "\(lane.app) \(push.text) at \(Self.milliseconds(push.atMs)) ms")
            canvas.svg.element("line", ["x1": .number(x), "y1": .number(top + 2), "x2": .number(x),
                                        "y2": .number(barTop + Self.stateBarHeight),
                                        "stroke": .string(colour), "stroke-width": 2,
                                        "stroke-dasharray": "3 2"])
            let rooms = (right: width - x - 5, left: x - Self.laneLabelWidth - 5)
            let spots: [(spot: TextPlacer.Spot, room: Double)] = [
                (.init(x: x + 3, y: top + 13), rooms.right), (.init(x: x + 3, y: top + 27), rooms.right),
                (.init(x: x - 3, y: top + 13, anchor: .end), rooms.left),
                (.init(x: x - 3, y: top + 27, anchor: .end), rooms.left),
            ]
            canvas.label(SVGCanvas.shortenable(push.text, fontSize: 9, spots: spots), fontSize: 9, fill: colour)
            canvas.svg.end("g")
        }
    }

    /// Each stretch protected data was unavailable: a shaded band across the lanes, edged where it starts (and
    /// where it ends when the data came back), labelled in the header's last free row.
    func drawLocks(_ canvas: inout SVGCanvas) {
        let top = Self.headerHeight - 4
        for lock in timeline.locks {
            let start = axis.x(lock.startMs)
            let end = max(start + 1, axis.x(lock.endMs))
            let until = lock.reopened ? "to \(Self.milliseconds(lock.endMs)) ms" : "to the end"
            canvas.svg.group(["class": "locked"], title: "protected data unavailable (device locked) from "
                                + "\(Self.milliseconds(lock.startMs)) ms \(until)")
            canvas.svg.element("rect", ["x": .number(start), "y": .number(top), "width": .number(end - start),
                                        "height": .number(lanesBottom - top),
                                        "fill": .string(TimelinePalette.locked),
                                        "fill-opacity": .number(TimelinePalette.lockedOpacity)])
            for x in lock.reopened ? [start, end] : [start] {
                canvas.svg.element("line", ["x1": .number(x), "y1": .number(top), "x2": .number(x),
                                            "y2": .number(lanesBottom), "stroke": .string(TimelinePalette.locked),
                                            "stroke-width": 1.5])
            }
            var spots: [(spot: TextPlacer.Spot, room: Double)] = []
            for row in (0..<Self.eventLabelRows).reversed() {
                let y = 44 + Double(row) * 15
                spots += [(.init(x: start + 3, y: y), width - start - 5), (.init(x: start - 3, y: y, anchor: .end),
                                                                          start - 60)]
            }
            canvas.label(SVGCanvas.shortenable("protected data unavailable", fontSize: 11, spots: spots),
                         fontSize: 11, fill: TimelinePalette.locked)
            canvas.svg.end("g")
        }
    }
}

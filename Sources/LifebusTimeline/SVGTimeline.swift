import LifebusLifecycle
import LifebusProtocol

/// A timeline drawn as one self-contained SVG document (no scripts, no external fonts or images) `width` pixels
/// wide: a lane per app with its states as coloured bars, each callback as a gauge (outline = budget, fill = time
/// used, red past the budget; gauges that would run into each other stacked in rows), endings as red crosses with
/// their reason, marks as ticks with their names, under a scene app's lane a sub-lane per scene (its scene states
/// as bars, its scene callbacks as gauges, named with its session), under an app's lane a row per `BGTask` identifier
/// (each run a bar: its outline the budget from the launch, its fill the time it ran, red when it expired and the
/// app was killed; the wait from submission to launch dashed; the expiration handler's call a tick), a push's
/// gauge with its fetch result and a deferred or discarded push as a tick, the stretches protected data was
/// unavailable as shaded bands across the lanes, controller events as labelled vertical lines across the lanes, a
/// time axis to scale with long idle gaps cut into labelled breaks (`TimeAxis`), and a legend.
///
/// Labels never overlap and nothing is drawn past the right edge: every text goes through a `TextPlacer`, which
/// puts it at the first of its spots where it fits (right of its mark, then left of it, then a row further; an
/// event's, mark's or ending's label shortened with a trailing `…` where it fits only so) or leaves it out; what
/// it leaves out or shortens stays in the hover title of the element it labels, and the picture's last line says
/// how many labels were left out. A lane name too long for its column is shortened with a leading `…`.
///
/// A plain value owning the timeline and its layout. The layout is public so that tests can find what was drawn
/// where: lane `i`'s state bar spans `stateBarTop(lane: i)` … `+ stateBarHeight`, at `axis.x(time)`; its callback
/// `k`'s gauge `gaugeTop(lane: i, callback: k)` … `+ gaugeHeight`; its scene `j`'s bar spans
/// `sceneBarTop(lane: i, scene: j)` … `+ sceneBarHeight`; its task run `k`'s bar `taskBarTop(lane: i, task: k)` …
/// `+ taskBarHeight`.
public struct SVGTimeline: Sendable {
    /// Where one lane's parts are: its top, the row of each app callback's gauge, its task rows (one per task
    /// identifier, in order of first record) and each task run's row, its scenes'.
    struct LaneLayout: Sendable {
        var top: Double
        var gaugeRows: [Int]
        var taskRowTops: [Double]
        var taskRows: [Int]
        var scenes: [SceneLayout]
        var bottom: Double
    }

    /// Where one scene sub-lane's parts are.
    struct SceneLayout: Sendable {
        var top: Double
        var gaugeRows: [Int]
    }

    public let timeline: Timeline
    public let width: Double
    public let axis: TimeAxis
    let lanes: [LaneLayout]
    let legend: [Legend.Placed]

    public static let defaultWidth = 1280.0
    public static let minimumWidth = 640.0
    public static let maximumWidth = 100_000.0
    public static let laneLabelWidth = 230.0
    /// Right of the axis' end: room for a gauge at the last moment.
    public static let rightMargin = 56.0
    public static let headerHeight = 92.0
    public static let stateBarOffset = 30.0
    public static let stateBarHeight = 22.0
    public static let gaugeOffset = 58.0
    public static let gaugeRowHeight = 35.0
    public static let maximumGaugeRows = 4
    public static let gaugeWidth = 40.0
    public static let gaugeHeight = 9.0
    public static let sceneBarOffset = 6.0
    public static let sceneBarHeight = 14.0
    public static let sceneGaugeOffset = 26.0
    public static let taskRowHeight = 36.0
    public static let taskBarOffset = 6.0
    public static let taskBarHeight = 12.0
    static let eventLabelRows = 3

    /// The picture of `timeline`, `width` pixels wide (clamped to `minimumWidth…maximumWidth`).
    public init(_ timeline: Timeline, width: Double = Self.defaultWidth) {
        self.timeline = timeline
        self.width = min(Self.maximumWidth, max(Self.minimumWidth, width)).rounded()
        var times = [timeline.startMs, timeline.endMs] + timeline.events.map(\.atMs)
        for lane in timeline.lanes {
            times += lane.spans.map(\.startMs) + lane.callbacks.map(\.sentMs) + lane.endings.map(\.atMs)
            times += lane.marks.map(\.atMs)
            for scene in lane.scenes {
                times += scene.spans.map(\.startMs) + scene.callbacks.map(\.sentMs)
            }
            for task in lane.tasks {
                times += [task.submittedMs, task.launchedMs, task.expiringMs, task.endMs].compactMap { $0 }
            }
            times += lane.pushes.map(\.atMs)
        }
        times += timeline.locks.flatMap { [$0.startMs, $0.endMs] }
        let axis = TimeAxis(times: times, startX: Self.laneLabelWidth + 10, endX: self.width - Self.rightMargin)
        self.axis = axis
        var lanes: [LaneLayout] = []
        var top = Self.headerHeight
        for lane in timeline.lanes {
            let (rows, rowCount) = Self.gaugeRows(lane.callbacks, axis: axis)
            var bottom = top + Self.gaugeOffset + Double(rowCount) * Self.gaugeRowHeight + 4
            let identifiers = Self.taskIdentifiers(lane.tasks)
            let taskRowTops = identifiers.indices.map { bottom + Double($0) * Self.taskRowHeight }
            bottom += Double(identifiers.count) * Self.taskRowHeight
            let taskRows = lane.tasks.map { task in identifiers.firstIndex(of: task.identifier) ?? 0 }
            var scenes: [SceneLayout] = []
            for scene in lane.scenes {
                let (sceneRows, sceneRowCount) = Self.gaugeRows(scene.callbacks, axis: axis)
                scenes.append(SceneLayout(top: bottom, gaugeRows: sceneRows))
                bottom += Self.sceneGaugeOffset + Double(sceneRowCount) * Self.gaugeRowHeight + 2
            }
            lanes.append(LaneLayout(top: top, gaugeRows: rows, taskRowTops: taskRowTops, taskRows: taskRows,
                                    scenes: scenes, bottom: bottom))
            top = bottom
        }
        self.lanes = lanes
        legend = Legend.layout(width: self.width, top: top + 64)
    }

    /// Each callback's gauge row and how many rows the lane needs: a gauge covers its outline and its labels.
    private static func gaugeRows(_ runs: [Timeline.CallbackRun], axis: TimeAxis) -> ([Int], Int) {
        var rows = GaugeRows(maximum: maximumGaugeRows)
        let placed = runs.map { run in
            let x = axis.x(run.sentMs)
            let labels = max(TextBox.width(of: abbreviation(run.callback), fontSize: 9),
                             TextBox.width(of: latencyText(run), fontSize: 8))
            return rows.place(from: x, to: x + max(gaugeWidth + 4, labels) + 6)
        }
        return (placed, rows.count)
    }

    /// The top of lane `lane` (`lane == lanes.count`: where the lanes end).
    public func laneTop(_ lane: Int) -> Double {
        lane < lanes.count ? lanes[lane].top : lanesBottom
    }

    /// The top of the sub-lane of scene `scene` (its position in the lane's `scenes`) under lane `lane`.
    public func sceneLaneTop(lane: Int, scene: Int) -> Double {
        lanes[lane].scenes[scene].top
    }

    /// The top of that scene's state bar.
    public func sceneBarTop(lane: Int, scene: Int) -> Double {
        sceneLaneTop(lane: lane, scene: scene) + Self.sceneBarOffset
    }

    /// The top of the row of lane `lane`'s task run at `task` (its position in the lane's `tasks`): the row of its
    /// identifier.
    public func taskRowTop(lane: Int, task: Int) -> Double {
        lanes[lane].taskRowTops[lanes[lane].taskRows[task]]
    }

    /// The top of that task run's bar.
    public func taskBarTop(lane: Int, task: Int) -> Double {
        taskRowTop(lane: lane, task: task) + Self.taskBarOffset
    }

    /// The top of lane `lane`'s state bar.
    public func stateBarTop(lane: Int) -> Double {
        laneTop(lane) + Self.stateBarOffset
    }

    /// The top of the gauge of the lane's app callback at `callback` (its position in the lane's `callbacks`).
    public func gaugeTop(lane: Int, callback: Int) -> Double {
        laneTop(lane) + Self.gaugeOffset + Double(lanes[lane].gaugeRows[callback]) * Self.gaugeRowHeight
    }

    /// The top of the gauge of the scene callback at `callback` of scene `scene` under lane `lane`.
    public func sceneGaugeTop(lane: Int, scene: Int, callback: Int) -> Double {
        let layout = lanes[lane].scenes[scene]
        return layout.top + Self.sceneGaugeOffset + Double(layout.gaugeRows[callback]) * Self.gaugeRowHeight
    }

    /// Where the lanes end and the axis begins.
    public var lanesBottom: Double { lanes.last?.bottom ?? Self.headerHeight }

    /// Under the legend: the line saying how many labels were left out.
    var noteY: Double { (legend.map(\.y).max() ?? lanesBottom + 64) + 34 }

    public var height: Double { (noteY + 12).rounded(.up) }

    /// The document.
    public func render() -> String {
        var canvas = SVGCanvas(width: width)
        canvas.svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        canvas.svg.start("svg", [
            "xmlns": "http://www.w3.org/2000/svg", "width": .number(width), "height": .number(height),
            "viewBox": .string("0 0 \(SVGValue.number(width).text) \(SVGValue.number(height).text)"),
            "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif", "font-size": 11, "role": "img",
        ])
        canvas.svg.element("title", [:], text: title)
        canvas.svg.element("rect", ["x": 0, "y": 0, "width": .number(width), "height": .number(height),
                                    "fill": .string(TimelinePalette.background)])
        drawHeader(&canvas)
        for gap in axis.breaks {
            let middle = Self.breakMiddle(gap)
            canvas.labels.reserve(TextBox(minX: middle - 8, minY: Self.headerHeight - 4, maxX: middle + 8,
                                          maxY: lanesBottom + 20))
        }
        drawAxis(&canvas)
        drawLaneHeadings(&canvas)
        for (index, lane) in timeline.lanes.enumerated() {
            drawLane(lane, index: index, into: &canvas)
        }
        drawLocks(&canvas)
        drawEvents(&canvas)
        drawBreaks(&canvas)
        drawLegend(&canvas)
        let leftOut = canvas.labels.leftOut
        if leftOut > 0 {
            canvas.label("\(leftOut) label\(leftOut == 1 ? "" : "s") left out where \(leftOut == 1 ? "it" : "they") "
                + "would overlap another: hover an element for its details", fontSize: 10,
                fill: TimelinePalette.budget, spots: [.init(x: 12, y: noteY)])
        }
        canvas.svg.end("svg")
        return canvas.svg.text
    }

    /// What the picture shows, in one line: its heading and the document's title.
    private var title: String {
        let apps = timeline.lanes.count
        return "Lifebus timeline: \(apps) app\(apps == 1 ? "" : "s"), \(timeline.events.count) events, "
            + "\(Self.milliseconds(timeline.durationMs)) ms"
    }

    private func drawHeader(_ canvas: inout SVGCanvas) {
        let heading = TextBox.fitted(title, width: width - 26, fontSize: 15, bold: true, keepingStart: true)
        canvas.label(heading, fontSize: 15, bold: true, spots: [.init(x: 12, y: 22)])
        canvas.label("events", fontSize: 11, fill: TimelinePalette.event, spots: [.init(x: 12, y: 44)])
    }

    /// Each controller event as a dashed line across the lanes, its label in the first of the header's rows where
    /// it fits, right of the line or else left of it.
    private func drawEvents(_ canvas: inout SVGCanvas) {
        for event in timeline.events {
            let x = axis.x(event.atMs)
            let at = Self.milliseconds(event.atMs)
            canvas.svg.group(["class": "event"], title: "event \(event.eventID): \(event.label) at \(at) ms")
            var spots: [(spot: TextPlacer.Spot, room: Double)] = []
            for row in 0..<Self.eventLabelRows {
                let y = 44 + Double(row) * 15
                spots += [(.init(x: x + 3, y: y), width - x - 5), (.init(x: x - 3, y: y, anchor: .end), x - 60)]
            }
            let choices = SVGCanvas.shortenable(event.label, fontSize: 11, spots: spots)
            let top = canvas.label(choices, fontSize: 11).map { $0.y + 4 } ?? Self.headerHeight - 4
            canvas.svg.element("line", ["x1": .number(x), "y1": .number(top), "x2": .number(x),
                                        "y2": .number(lanesBottom),
                                        "stroke": .string(TimelinePalette.event), "stroke-width": 1,
                                        "stroke-dasharray": "4 3"])
            canvas.svg.end("g")
        }
    }

    /// Each break: a white cut through the lanes and the axis between two zig-zag lines, labelled with how long it
    /// lasted under the axis.
    private func drawBreaks(_ canvas: inout SVGCanvas) {
        let top = Self.headerHeight - 4
        let bottom = lanesBottom + 20
        for gap in axis.breaks {
            let middle = Self.breakMiddle(gap)
            canvas.svg.group(["class": "break"],
                             title: "\(gap.label): \(Self.milliseconds(gap.durationMs)) ms with nothing happening")
            canvas.svg.element("rect", ["x": .number(middle - 4), "y": .number(top), "width": 8,
                                        "height": .number(bottom - top), "fill": "#ffffff"])
            for offset in [-4.0, 4.0] {
                canvas.svg.element("path", ["d": .string(Self.zigzag(x: middle + offset, top: top, bottom: bottom)),
                                            "fill": "none", "stroke": .string(TimelinePalette.budget),
                                            "stroke-width": 1.5])
            }
            let y = lanesBottom + 42
            canvas.label(gap.label, fontSize: 10, bold: true, fill: TimelinePalette.budget,
                         spots: [.init(x: middle, y: y, anchor: .middle), .init(x: middle, y: y + 12, anchor: .middle),
                                 .init(x: middle, y: y, anchor: .end), .init(x: middle, y: y, anchor: .start)])
            canvas.svg.end("g")
        }
    }

    /// Where a break's cut is drawn: in its middle, but clear of a gauge drawn at the moment before it.
    public static func breakMiddle(_ gap: TimeAxis.Break) -> Double {
        max(gap.startX + gaugeWidth + 10, (gap.startX + gap.endX) / 2)
    }

    /// The axis: a line per stretch drawn to scale (the breaks cut it), ticks at round times.
    private func drawAxis(_ canvas: inout SVGCanvas) {
        let y = lanesBottom + 12
        canvas.label("ms since the broker started", fontSize: 11, spots: [.init(x: 12, y: y + 17)])
        // Each segment's line runs into the breaks on either side, up to their zig-zags.
        for (index, segment) in axis.segments.enumerated() {
            let start = index > 0 ? Self.breakMiddle(axis.breaks[index - 1]) + 4 : axis.x(segment.startMs)
            let end = index < axis.breaks.count ? Self.breakMiddle(axis.breaks[index]) - 4 : axis.x(segment.endMs)
            canvas.svg.element("line", ["x1": .number(start), "y1": .number(y), "x2": .number(max(start + 1, end)),
                                        "y2": .number(y), "stroke": .string(TimelinePalette.text), "stroke-width": 1])
        }
        for time in axis.ticks(spacing: 80) {
            let x = axis.x(time)
            guard canvas.label(Self.milliseconds(time), fontSize: 10,
                               spots: [.init(x: x, y: y + 17, anchor: .middle), .init(x: x, y: y + 17)]) != nil else {
                continue
            }
            canvas.svg.element("line", ["x1": .number(x), "y1": .number(y), "x2": .number(x), "y2": .number(y + 5),
                                        "stroke": .string(TimelinePalette.text)])
        }
    }

    static func cross(at x: Double, y: Double, color: String, into svg: inout SVGWriter) {
        svg.element("path", ["d": .string("M\(x - 5) \(y - 5)L\(x + 5) \(y + 5)M\(x - 5) \(y + 5)L\(x + 5) \(y - 5)"),
                             "stroke": .string(color), "stroke-width": 2.5])
    }

    static func zigzag(x: Double, top: Double, bottom: Double) -> String {
        var path = "M\(SVGValue.number(x).text) \(SVGValue.number(top).text)"
        var y = top
        var left = true
        while y < bottom {
            y = min(bottom, y + 6)
            path += "L\(SVGValue.number(x + (left ? -3 : 3)).text) \(SVGValue.number(y).text)"
            left.toggle()
        }
        return path
    }

    /// `12.5`, `1500`: milliseconds with at most one decimal.
    static func milliseconds(_ value: Double) -> String {
        SVGValue.number(value).text
    }

    /// `12.5 ms`, or `no answer`: a callback's latency as its gauge says it.
    static func latencyText(_ run: Timeline.CallbackRun) -> String {
        run.latencyMs.map { "\(milliseconds($0)) ms" } ?? "no answer"
    }
}

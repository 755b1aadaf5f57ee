import LifebusLifecycle
import LifebusProtocol

/// A timeline drawn as one self-contained SVG document (no scripts, no external fonts or images): a lane per app
/// with its states as coloured bars, each callback as a gauge (outline = budget, fill = time used, red past the
/// budget), endings as red crosses with their reason, marks as ticks with their names, under a scene app's lane a
/// sub-lane per scene (its scene states as bars, its scene callbacks as gauges, named with its session), controller
/// events as labelled vertical lines across the lanes, a time axis in ms with idle stretches compressed into breaks,
/// and a legend.
///
/// A plain value owning the timeline and its layout. The layout is public so that tests can find what was drawn
/// where: lane `i`'s state bar spans `stateBarTop(lane: i)` … `+ stateBarHeight`, at `axis.x(time)`; its scene
/// `j`'s bar spans `sceneBarTop(lane: i, scene: j)` … `+ sceneBarHeight`.
public struct SVGTimeline: Sendable {
    public let timeline: Timeline
    public let axis: TimeAxis
    /// The top of each lane, and after the last the bottom of the lanes: a lane is `laneHeight` plus
    /// `sceneLaneHeight` per scene.
    private let laneTops: [Double]

    public static let laneLabelWidth = 230.0
    public static let headerHeight = 92.0
    public static let laneHeight = 94.0
    public static let stateBarOffset = 24.0
    public static let stateBarHeight = 22.0
    public static let gaugeOffset = 52.0
    public static let gaugeWidth = 40.0
    public static let gaugeHeight = 9.0
    public static let rightMargin = 260.0
    public static let sceneLaneHeight = 62.0
    public static let sceneBarOffset = 6.0
    public static let sceneBarHeight = 14.0
    public static let sceneGaugeOffset = 26.0
    static let eventLabelRows = 3

    public init(_ timeline: Timeline) {
        self.timeline = timeline
        var times = [timeline.startMs, timeline.endMs] + timeline.events.map(\.atMs)
        for lane in timeline.lanes {
            times += lane.spans.map(\.startMs) + lane.callbacks.map(\.sentMs) + lane.endings.map(\.atMs)
            times += lane.marks.map(\.atMs)
            for scene in lane.scenes {
                times += scene.spans.map(\.startMs) + scene.callbacks.map(\.sentMs)
            }
        }
        axis = TimeAxis(times: times, originX: Self.laneLabelWidth + 10)
        var tops = [Self.headerHeight]
        for lane in timeline.lanes {
            tops.append(tops[tops.count - 1] + Self.laneHeight + Double(lane.scenes.count) * Self.sceneLaneHeight)
        }
        laneTops = tops
    }

    /// The top of lane `lane` (`lane == lanes.count`: where the lanes end).
    public func laneTop(_ lane: Int) -> Double {
        laneTops[lane]
    }

    /// The top of the sub-lane of scene `scene` (its position in the lane's `scenes`) under lane `lane`.
    public func sceneLaneTop(lane: Int, scene: Int) -> Double {
        laneTop(lane) + Self.laneHeight + Double(scene) * Self.sceneLaneHeight
    }

    /// The top of that scene's state bar.
    public func sceneBarTop(lane: Int, scene: Int) -> Double {
        sceneLaneTop(lane: lane, scene: scene) + Self.sceneBarOffset
    }

    /// The top of lane `lane`'s state bar.
    public func stateBarTop(lane: Int) -> Double {
        laneTop(lane) + Self.stateBarOffset
    }

    /// Where the lanes end and the axis begins.
    public var lanesBottom: Double { laneTop(timeline.lanes.count) }

    public var width: Double { (axis.endX + Self.rightMargin).rounded(.up) }
    public var height: Double { (lanesBottom + 146).rounded(.up) }

    /// The document.
    public func render() -> String {
        var svg = SVGWriter()
        svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        svg.start("svg", [
            "xmlns": "http://www.w3.org/2000/svg", "width": .number(width), "height": .number(height),
            "viewBox": .string("0 0 \(SVGValue.number(width).text) \(SVGValue.number(height).text)"),
            "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif", "font-size": 11, "role": "img",
        ])
        svg.element("title", [:], text: title)
        svg.element("rect", ["x": 0, "y": 0, "width": .number(width), "height": .number(height),
                             "fill": .string(TimelinePalette.background)])
        drawHeader(&svg)
        for (index, lane) in timeline.lanes.enumerated() {
            drawLane(lane, index: index, into: &svg)
        }
        drawEvents(&svg)
        drawBreaks(&svg)
        drawAxis(&svg)
        drawLegend(&svg)
        svg.end("svg")
        return svg.text
    }

    /// What the picture shows, in one line: its heading and the document's title.
    private var title: String {
        let apps = timeline.lanes.count
        return "Lifebus timeline: \(apps) app\(apps == 1 ? "" : "s"), \(timeline.events.count) events, "
            + "\(Self.milliseconds(timeline.durationMs)) ms"
    }

    private func drawHeader(_ svg: inout SVGWriter) {
        svg.element("text", ["x": 12, "y": 22, "font-size": 15, "font-weight": "bold",
                             "fill": .string(TimelinePalette.text)], text: title)
        svg.element("text", ["x": 12, "y": 44, "fill": .string(TimelinePalette.event)], text: "events")
    }

    private func drawEvents(_ svg: inout SVGWriter) {
        var rows = LabelRows(rows: Self.eventLabelRows, characterWidth: 6.2)
        for event in timeline.events {
            let x = axis.x(event.atMs)
            let labelY = 44 + Double(rows.place(event.label, at: x + 3)) * 15
            let at = Self.milliseconds(event.atMs)
            svg.group(["class": "event"], title: "event \(event.eventID): \(event.label) at \(at) ms")
            svg.element("line", ["x1": .number(x), "y1": .number(labelY + 3), "x2": .number(x),
                                 "y2": .number(lanesBottom), "stroke": .string(TimelinePalette.event),
                                 "stroke-width": 1, "stroke-dasharray": "4 3"])
            svg.element("text", ["x": .number(x + 3), "y": .number(labelY), "fill": .string(TimelinePalette.text)],
                        text: event.label)
            svg.end("g")
        }
    }

    private func drawBreaks(_ svg: inout SVGWriter) {
        let top = Self.headerHeight - 4
        for gap in axis.breaks {
            let middle = gap.endX - 24  // clear of the gauge and labels drawn at the break's left end
            svg.group(["class": "break"], title: "\(Self.milliseconds(gap.durationMs)) ms with nothing happening")
            svg.element("rect", ["x": .number(middle - 6), "y": .number(top), "width": 12,
                                 "height": .number(lanesBottom - top + 18), "fill": "#ffffff", "opacity": 0.85])
            for offset in [-6.0, 6.0] {
                svg.element("path", ["d": .string(Self.zigzag(x: middle + offset, top: top, bottom: lanesBottom + 18)),
                                     "fill": "none", "stroke": .string(TimelinePalette.budget), "stroke-width": 1])
            }
            svg.element("text", ["x": .number(middle), "y": .number(lanesBottom + 44), "text-anchor": "middle",
                                 "font-size": 9, "fill": .string(TimelinePalette.budget)],
                        text: "+\(Self.seconds(gap.durationMs))")
            svg.end("g")
        }
    }

    private func drawAxis(_ svg: inout SVGWriter) {
        let y = lanesBottom + 12
        svg.element("line", ["x1": .number(axis.startX), "y1": .number(y), "x2": .number(axis.endX),
                             "y2": .number(y), "stroke": .string(TimelinePalette.text), "stroke-width": 1])
        for time in axis.labelledAnchors(spacing: 64) {
            let x = axis.x(time)
            svg.element("line", ["x1": .number(x), "y1": .number(y), "x2": .number(x), "y2": .number(y + 5),
                                 "stroke": .string(TimelinePalette.text)])
            svg.element("text", ["x": .number(x), "y": .number(y + 17), "text-anchor": "middle", "font-size": 10,
                                 "fill": .string(TimelinePalette.text)], text: Self.milliseconds(time))
        }
        svg.element("text", ["x": 12, "y": .number(y + 17), "fill": .string(TimelinePalette.text)],
                    text: "ms since the broker started")
    }

    private func drawLegend(_ svg: inout SVGWriter) {
        var x = 12.0
        let y = lanesBottom + 64
        for state in LifecycleState.allCases {
            svg.element("rect", ["x": .number(x), "y": .number(y), "width": 14, "height": 12,
                                 "fill": .string(TimelinePalette.color(of: state))])
            svg.element("text", ["x": .number(x + 18), "y": .number(y + 10)], text: state.rawValue)
            x += 24 + Double(state.rawValue.count) * 7
        }
        x = 12
        let sceneY = y + 56
        svg.element("text", ["x": .number(x), "y": .number(sceneY + 10)], text: "scene:")
        x += 44
        for state in SceneState.allCases {
            svg.element("rect", ["x": .number(x), "y": .number(sceneY), "width": 14, "height": 12,
                                 "fill": .string(TimelinePalette.color(of: state))])
            svg.element("text", ["x": .number(x + 18), "y": .number(sceneY + 10)], text: state.rawValue)
            x += 24 + Double(state.rawValue.count) * 7
        }
        let gaugeY = y + 30
        svg.element("rect", ["x": 12, "y": .number(gaugeY), "width": .number(Self.gaugeWidth),
                             "height": .number(Self.gaugeHeight), "fill": "none",
                             "stroke": .string(TimelinePalette.budget)])
        svg.element("rect", ["x": 12, "y": .number(gaugeY), "width": 14, "height": .number(Self.gaugeHeight),
                             "fill": .string(TimelinePalette.used)])
        svg.element("text", ["x": 58, "y": .number(gaugeY + 9)],
                    text: "callback: outline = budget, fill = time used (red past the budget)")
        Self.cross(at: 470, y: gaugeY + 4, color: TimelinePalette.failure, into: &svg)
        svg.element("text", ["x": 482, "y": .number(gaugeY + 9)], text: "watchdog / jetsam / crash")
        svg.element("line", ["x1": 660, "y1": .number(gaugeY - 2), "x2": 660, "y2": .number(gaugeY + 11),
                             "stroke": .string(TimelinePalette.mark), "stroke-width": 2])
        svg.element("text", ["x": 666, "y": .number(gaugeY + 9)], text: "mark")
        svg.element("line", ["x1": 716, "y1": .number(gaugeY - 2), "x2": 716, "y2": .number(gaugeY + 11),
                             "stroke": .string(TimelinePalette.event), "stroke-dasharray": "4 3"])
        svg.element("text", ["x": 722, "y": .number(gaugeY + 9)], text: "event (call, sms, home…)")
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

    /// `12.3 s`, `850 ms` for a break's label.
    static func seconds(_ value: Double) -> String {
        value >= 1_000 ? "\(SVGValue.number(value / 1_000).text) s" : "\(milliseconds(value)) ms"
    }
}

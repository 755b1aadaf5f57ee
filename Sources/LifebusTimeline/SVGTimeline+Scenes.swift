import LifebusLifecycle
import LifebusProtocol

/// Drawing one scene's sub-lane under its app's lane: its name and session, its scene states as bars, its scene
/// callbacks as gauges (the same gauge as an app callback: outline = budget, fill = time used).
extension SVGTimeline {
    func drawScene(_ scene: Timeline.SceneLane, app: String, lane: Int, position: Int, into svg: inout SVGWriter) {
        let top = sceneLaneTop(lane: lane, scene: position)
        let barTop = sceneBarTop(lane: lane, scene: position)
        svg.element("line", ["x1": 24, "y1": .number(top), "x2": .number(width - Self.rightMargin / 2),
                             "y2": .number(top), "stroke": "#e0e0e0", "stroke-width": 1])
        svg.element("text", ["x": 24, "y": .number(barTop + 11), "font-size": 11,
                             "fill": .string(TimelinePalette.text)], text: scene.label)
        for span in scene.spans {
            let x = axis.x(span.startMs)
            svg.element(
                "rect",
                ["x": .number(x), "y": .number(barTop), "width": .number(max(1, axis.x(span.endMs) - x)),
                 "height": .number(Self.sceneBarHeight), "fill": .string(TimelinePalette.color(of: span.state))],
                text: "",
                title: "\(app) \(scene.label): \(span.state.rawValue) from \(Self.milliseconds(span.startMs)) to "
                    + "\(Self.milliseconds(span.endMs)) ms"
            )
        }
        for run in scene.callbacks {
            drawCallback(run, app: app, gaugeTop: top + Self.sceneGaugeOffset, into: &svg)
        }
    }
}

import LifebusLifecycle
import LifebusProtocol

/// Drawing one scene's sub-lane under its app's lane: its name and session, its scene states as bars, its scene
/// callbacks as gauges (the same gauge as an app callback, stacked in rows the same way).
extension SVGTimeline {
    func drawScene(_ scene: Timeline.SceneLane, app: String, lane: Int, position: Int, into canvas: inout SVGCanvas) {
        let top = sceneLaneTop(lane: lane, scene: position)
        let barTop = sceneBarTop(lane: lane, scene: position)
        canvas.svg.element("line", ["x1": 24, "y1": .number(top), "x2": .number(axis.endX + Self.gaugeWidth),
                                    "y2": .number(top), "stroke": "#e0e0e0", "stroke-width": 1])
        canvas.label(scene.label, fontSize: 11, spots: [.init(x: 24, y: barTop + 11)])
        for span in scene.spans {
            let x = axis.x(span.startMs)
            canvas.svg.element(
                "rect",
                ["x": .number(x), "y": .number(barTop), "width": .number(max(1, axis.x(span.endMs) - x)),
                 "height": .number(Self.sceneBarHeight), "fill": .string(TimelinePalette.color(of: span.state))],
                text: "",
                title: "\(app) \(scene.label): \(span.state.rawValue) from \(Self.milliseconds(span.startMs)) to "
                    + "\(Self.milliseconds(span.endMs)) ms"
            )
        }
        for (index, run) in scene.callbacks.enumerated() {
            let y = sceneGaugeTop(lane: lane, scene: position, callback: index)
            drawCallback(run, app: app, gaugeTop: y, into: &canvas)
        }
    }
}

import LifebusLifecycle
import LifebusProtocol

/// Drawing one scene's sub-lane under its app's lane (its name is drawn with the lanes' headings): its scene states
/// as bars, its scene callbacks as gauges (the same gauge as an app callback, stacked in rows the same way).
extension SVGTimeline {
    func drawScene(_ scene: Timeline.SceneLane, app: String, lane: Int, position: Int, into canvas: inout SVGCanvas) {
        let barTop = sceneBarTop(lane: lane, scene: position)
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

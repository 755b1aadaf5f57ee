import LifebusLifecycle
import LifebusProtocol

/// Drawing one app's lane: its name, its state bars, its callback gauges, its marks, its endings and its scenes'
/// sub-lanes.
extension SVGTimeline {
    func drawLane(_ lane: Timeline.Lane, index: Int, into svg: inout SVGWriter) {
        let top = laneTop(index)
        let barTop = stateBarTop(lane: index)
        if index % 2 == 1 {
            svg.element("rect", ["x": 0, "y": .number(top), "width": .number(width),
                                 "height": .number(laneTop(index + 1) - top), "fill": "#f8f9fa"])
        }
        svg.element("text", ["x": 12, "y": .number(barTop + 15), "font-size": 12, "font-weight": "bold",
                             "fill": .string(TimelinePalette.text)], text: Self.shortened(lane.app, to: 32))
        for span in lane.spans {
            let x = axis.x(span.startMs)
            svg.element(
                "rect",
                ["x": .number(x), "y": .number(barTop), "width": .number(max(1, axis.x(span.endMs) - x)),
                 "height": .number(Self.stateBarHeight), "fill": .string(TimelinePalette.color(of: span.state))],
                text: "",
                title: "\(lane.app): \(span.state.rawValue) from \(Self.milliseconds(span.startMs)) to "
                    + "\(Self.milliseconds(span.endMs)) ms"
            )
        }
        for run in lane.callbacks {
            drawCallback(run, app: lane.app, gaugeTop: top + Self.gaugeOffset, into: &svg)
        }
        var markRows = LabelRows(rows: 2, characterWidth: 5.2)
        for mark in lane.marks {
            let x = axis.x(mark.atMs)
            let labelY = top + 10 + Double(markRows.place(mark.name, at: x + 3)) * 10
            svg.group(["class": "mark"], title: "\(lane.app) mark \(mark.name) at \(Self.milliseconds(mark.atMs)) ms")
            svg.element("line", ["x1": .number(x), "y1": .number(top + 2), "x2": .number(x),
                                 "y2": .number(barTop + Self.stateBarHeight), "stroke": .string(TimelinePalette.mark),
                                 "stroke-width": 2])
            svg.element("text", ["x": .number(x + 3), "y": .number(labelY), "font-size": 9,
                                 "fill": .string(TimelinePalette.mark)], text: mark.name)
            svg.end("g")
        }
        for ending in lane.endings {
            let x = axis.x(ending.atMs)
            let color = ending.isFailure ? TimelinePalette.failure : TimelinePalette.killed
            let at = Self.milliseconds(ending.atMs)
            svg.group(["class": "ending"], title: "\(lane.app) \(ending.reason) at \(at) ms")
            Self.cross(at: x, y: barTop + Self.stateBarHeight / 2, color: color, into: &svg)
            // Right of the cross, or left of it when it would run past the picture's edge.
            let fitsRight = x + 8 + Double(ending.reason.count) * 6.5 < width
            svg.element("text", ["x": .number(fitsRight ? x + 8 : x - 8), "y": .number(top + Self.laneHeight - 6),
                                 "text-anchor": fitsRight ? "start" : "end", "font-size": 10, "font-weight": "bold",
                                 "fill": .string(color)], text: ending.reason)
            svg.end("g")
        }
        for (position, scene) in lane.scenes.enumerated() {
            drawScene(scene, app: lane.app, lane: index, position: position, into: &svg)
        }
    }

    /// A gauge under the state bar where the callback was sent: its outline is the budget, its fill the time used
    /// (drawn to the budget's scale); over budget the fill is red and runs past the outline by a notch.
    func drawCallback(_ run: Timeline.CallbackRun, app: String, gaugeTop y: Double, into svg: inout SVGWriter) {
        let x = axis.x(run.sentMs)
        let latency = run.latencyMs.map { "\(Self.milliseconds($0)) ms" } ?? "no answer"
        let cause = run.cause.map { ", caused by \($0.event)" } ?? ""
        let move = run.scene.map { "scene \($0.scene.number) \($0.from.rawValue) → \($0.to.rawValue)" }
            ?? "\(run.from.rawValue) → \(run.to.rawValue)"
        svg.group(
            ["class": "callback"],
            title: "\(app) \(run.callback.rawValue) (\(move)): \(latency) of "
                + "\(Self.milliseconds(run.budgetMs)) ms budget, \(run.outcome.rawValue)\(cause)"
        )
        let fraction = run.budgetMs > 0 ? min(1, run.drawnMs / run.budgetMs) : (run.drawnMs > 0 ? 1 : 0)
        let fillColor = run.overBudget ? TimelinePalette.failure : TimelinePalette.used
        svg.element("rect", ["x": .number(x), "y": .number(y), "width": .number(Self.gaugeWidth),
                             "height": .number(Self.gaugeHeight), "fill": "#ffffff",
                             "stroke": .string(TimelinePalette.budget), "stroke-width": 1])
        svg.element("rect", ["x": .number(x), "y": .number(y), "width": .number(max(1.5, fraction * Self.gaugeWidth)),
                             "height": .number(Self.gaugeHeight), "fill": .string(fillColor)])
        if run.overBudget {
            svg.element("rect", ["x": .number(x + Self.gaugeWidth), "y": .number(y - 1), "width": 4,
                                 "height": .number(Self.gaugeHeight + 2), "fill": .string(TimelinePalette.failure)])
        }
        svg.element("text", ["x": .number(x), "y": .number(y + 19), "font-size": 9,
                             "fill": .string(run.overBudget ? TimelinePalette.failure : TimelinePalette.text)],
                    text: Self.abbreviation(run.callback))
        svg.element("text", ["x": .number(x), "y": .number(y + 29), "font-size": 8,
                             "fill": .string(TimelinePalette.budget)], text: latency)
        svg.end("g")
    }

    /// A callback's name in the few characters a gauge has room for (the full name is in its hover title).
    static func abbreviation(_ callback: LifecycleCallback) -> String {
        switch callback {
        case .didFinishLaunching: "launch"
        case .didBecomeActive: "active"
        case .willResignActive: "resign"
        case .didEnterBackground: "enter bg"
        case .willEnterForeground: "enter fg"
        case .willTerminate: "terminate"
        case .didReceiveMemoryWarning: "memory"
        case .configurationForConnecting: "config"
        case .didDiscardSceneSessions: "discard"
        case .willConnectTo: "connect"
        case .restoreInteractionState: "restore"
        case .sceneWillEnterForeground: "s enter fg"
        case .sceneDidBecomeActive: "s active"
        case .sceneWillResignActive: "s resign"
        case .sceneDidEnterBackground: "s enter bg"
        case .stateRestorationActivity: "save"
        case .sceneDidDisconnect: "disconnect"
        case .openURLContexts: "open url"
        case .protectedDataWillBecomeUnavailable: "data lock"
        case .protectedDataDidBecomeAvailable: "data open"
        case .didReceiveRemoteNotification: "push"
        case .performBackgroundTask: "bg task"
        case .backgroundTaskWillExpire: "expire"
        }
    }

    static func shortened(_ text: String, to length: Int) -> String {
        text.count <= length ? text : "…" + text.suffix(length - 1)
    }
}

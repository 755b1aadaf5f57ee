import LifebusLifecycle
import LifebusProtocol

/// Drawing one app's lane: its name, its state bars, its callback gauges, its marks, its endings, its task rows, its
/// deferred and discarded pushes and its scenes' sub-lanes.
extension SVGTimeline {
    /// Every lane's background and name and its scenes' names, in the label column; then the column is kept clear
    /// of the plot's labels.
    func drawLaneHeadings(_ canvas: inout SVGCanvas) {
        for (index, lane) in timeline.lanes.enumerated() {
            let top = laneTop(index)
            if index % 2 == 1 {
                canvas.svg.element("rect", ["x": 0, "y": .number(top), "width": .number(width),
                                            "height": .number(lanes[index].bottom - top), "fill": "#f8f9fa"])
            }
            let name = TextBox.fitted(lane.app, width: Self.laneLabelWidth - 20, fontSize: 12, bold: true)
            canvas.label(name, fontSize: 12, bold: true, spots: [.init(x: 12, y: stateBarTop(lane: index) + 15)],
                         title: name == lane.app ? nil : lane.app)
            drawTaskHeadings(lane, index: index, into: &canvas)
            for position in lane.scenes.indices {
                let sceneTop = sceneLaneTop(lane: index, scene: position)
                canvas.svg.element("line", ["x1": 24, "y1": .number(sceneTop),
                                            "x2": .number(axis.endX + Self.gaugeWidth), "y2": .number(sceneTop),
                                            "stroke": "#e0e0e0", "stroke-width": 1])
                canvas.label(lane.scenes[position].label, fontSize: 11,
                             spots: [.init(x: 24, y: sceneBarTop(lane: index, scene: position) + 11)])
            }
        }
        canvas.labels.reserve(TextBox(minX: 0, minY: Self.headerHeight, maxX: Self.laneLabelWidth, maxY: lanesBottom))
    }

    func drawLane(_ lane: Timeline.Lane, index: Int, into canvas: inout SVGCanvas) {
        let top = laneTop(index)
        let barTop = stateBarTop(lane: index)
        for span in lane.spans {
            let x = axis.x(span.startMs)
            canvas.svg.element(
                "rect",
                ["x": .number(x), "y": .number(barTop), "width": .number(max(1, axis.x(span.endMs) - x)),
                 "height": .number(Self.stateBarHeight), "fill": .string(TimelinePalette.color(of: span.state))],
                text: "",
                title: "\(lane.app): \(span.state.rawValue) from \(Self.milliseconds(span.startMs)) to "
                    + "\(Self.milliseconds(span.endMs)) ms"
            )
        }
        for (position, run) in lane.callbacks.enumerated() {
            drawCallback(run, app: lane.app, gaugeTop: gaugeTop(lane: index, callback: position), into: &canvas)
        }
        for mark in lane.marks {
            let x = axis.x(mark.atMs)
            canvas.svg.group(["class": "mark"],
                             title: "\(lane.app) mark \(mark.name) at \(Self.milliseconds(mark.atMs)) ms")
            canvas.svg.element("line", ["x1": .number(x), "y1": .number(top + 2), "x2": .number(x),
                                        "y2": .number(barTop + Self.stateBarHeight),
                                        "stroke": .string(TimelinePalette.mark), "stroke-width": 2])
            let rooms = (right: width - x - 5, left: x - Self.laneLabelWidth - 5)
            let spots: [(spot: TextPlacer.Spot, room: Double)] = [
                (.init(x: x + 3, y: top + 13), rooms.right), (.init(x: x + 3, y: top + 27), rooms.right),
                (.init(x: x - 3, y: top + 13, anchor: .end), rooms.left),
                (.init(x: x - 3, y: top + 27, anchor: .end), rooms.left),
            ]
            canvas.label(SVGCanvas.shortenable(mark.name, fontSize: 9, spots: spots), fontSize: 9,
                         fill: TimelinePalette.mark)
            canvas.svg.end("g")
        }
        for ending in lane.endings {
            let x = axis.x(ending.atMs)
            let color = ending.isFailure ? TimelinePalette.failure : TimelinePalette.killed
            let at = Self.milliseconds(ending.atMs)
            canvas.svg.group(["class": "ending"], title: "\(lane.app) \(ending.reason) at \(at) ms")
            Self.cross(at: x, y: barTop + Self.stateBarHeight / 2, color: color, into: &canvas.svg)
            // Just above the bar, right of the cross or else left of it (a row higher if need be); else shortened to
            // the room on that side.
            let rooms = (right: width - x - 10, left: x - Self.laneLabelWidth - 10)
            var spots: [(spot: TextPlacer.Spot, room: Double)] = []
            for y in [top + 27, top + 13] {
                spots += [(.init(x: x + 8, y: y), rooms.right), (.init(x: x - 8, y: y, anchor: .end), rooms.left)]
            }
            canvas.label(SVGCanvas.shortenable(ending.reason, fontSize: 10, bold: true, spots: spots), fontSize: 10,
                         bold: true, fill: color)
            canvas.svg.end("g")
        }
        for (position, task) in lane.tasks.enumerated() {
            drawTask(task, app: lane.app, lane: index, position: position, into: &canvas)
        }
        drawUndeliveredPushes(lane, index: index, into: &canvas)
        for (position, scene) in lane.scenes.enumerated() {
            drawScene(scene, app: lane.app, lane: index, position: position, into: &canvas)
        }
    }

    /// A gauge where the callback was sent: its outline is the budget, its fill the time used (drawn to the
    /// budget's scale); over budget the fill is red and runs past the outline by a notch. Under it the callback's
    /// short name and its latency, from the gauge's left edge or else ending at its right edge; a push's latency
    /// line adds its fetch result (`2 ms, newData`), or where that has no room says the result alone.
    func drawCallback(_ run: Timeline.CallbackRun, app: String, gaugeTop y: Double, into canvas: inout SVGCanvas) {
        let x = axis.x(run.sentMs)
        let latency = Self.latencyText(run)
        let cause = run.cause.map { ", caused by \($0.event)" } ?? ""
        let move = run.scene.map { "scene \($0.scene.number) \($0.from.rawValue) → \($0.to.rawValue)" }
            ?? "\(run.from.rawValue) → \(run.to.rawValue)"
        let result = run.fetchResult.map { ", result \($0.rawValue)" } ?? ""
        canvas.svg.group(
            ["class": "callback"],
            title: "\(app) \(run.callback.rawValue) (\(move)): \(latency) of "
                + "\(Self.milliseconds(run.budgetMs)) ms budget, \(run.outcome.rawValue)\(result)\(cause)"
        )
        let fraction = run.budgetMs > 0 ? min(1, run.drawnMs / run.budgetMs) : (run.drawnMs > 0 ? 1 : 0)
        let fillColor = run.overBudget ? TimelinePalette.failure : TimelinePalette.used
        canvas.svg.element("rect", ["x": .number(x), "y": .number(y), "width": .number(Self.gaugeWidth),
                                    "height": .number(Self.gaugeHeight), "fill": "#ffffff",
                                    "stroke": .string(TimelinePalette.budget), "stroke-width": 1])
        canvas.svg.element("rect", ["x": .number(x), "y": .number(y),
                                    "width": .number(max(1.5, fraction * Self.gaugeWidth)),
                                    "height": .number(Self.gaugeHeight), "fill": .string(fillColor)])
        if run.overBudget {
            canvas.svg.element("rect", ["x": .number(x + Self.gaugeWidth), "y": .number(y - 1), "width": 4,
                                        "height": .number(Self.gaugeHeight + 2),
                                        "fill": .string(TimelinePalette.failure)])
        }
        let right = x + Self.gaugeWidth
        canvas.label(Self.abbreviation(run.callback), fontSize: 9,
                     fill: run.overBudget ? TimelinePalette.failure : TimelinePalette.text,
                     spots: [.init(x: x, y: y + 19), .init(x: right, y: y + 19, anchor: .end)])
        let spots: [TextPlacer.Spot] = [.init(x: x, y: y + 31), .init(x: right, y: y + 31, anchor: .end)]
        let texts = run.fetchResult.map { ["\(latency), \($0.rawValue)", $0.rawValue] } ?? [latency]
        canvas.label(texts.flatMap { text in spots.map { (text, $0) } }, fontSize: 8,
                     fill: run.fetchResult == .failed ? TimelinePalette.failure : TimelinePalette.budget)
        canvas.svg.end("g")
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
        case .openURL: "open"
        case .didReceiveNotificationResponse: "tap"
        case .willPresentNotification: "present"
        }
    }
}

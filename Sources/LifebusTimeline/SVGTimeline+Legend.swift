import LifebusLifecycle

/// The picture's legend: the state colours, the gauge, the ending cross, the mark and the event line, the task bar
/// and the protected-data band, the scene state colours — three lines, each flowing onto another row where the
/// picture is too narrow.
///
/// Stateless; `layout` places the keys, `SVGTimeline.drawLegend` draws them.
enum Legend {
    /// One key of the legend: its swatch and its words.
    enum Key: Sendable {
        case state(LifecycleState)
        case sceneCaption
        case sceneState(SceneState)
        case gauge
        case cross
        case mark
        case event
        case task
        case locked

        var text: String {
            switch self {
            case .state(let state): state.rawValue
            case .sceneCaption: "scene:"
            case .sceneState(let state): state.rawValue
            case .gauge: "callback: outline = budget, fill = time used (red past the budget)"
            case .cross: "watchdog / jetsam / crash"
            case .mark: "mark"
            case .event: "event (call, sms, home…)"
            case .task: "background task: outline = budget, fill = time run, tick = expiring"
            case .locked: "protected data unavailable"
            }
        }

        var swatchWidth: Double {
            switch self {
            case .state, .sceneState: 14
            case .sceneCaption: 0
            case .gauge: SVGTimeline.gaugeWidth + 4
            case .cross: 12
            case .mark, .event: 4
            case .task: SVGTimeline.gaugeWidth + 4
            case .locked: 14
            }
        }

        /// Where its words start, right of the swatch.
        var textOffset: Double { swatchWidth > 0 ? swatchWidth + 6 : 0 }
    }

    /// A key at its place: `y` is the top of its row.
    struct Placed: Sendable {
        var key: Key
        var x: Double
        var y: Double
    }

    static let rowHeight = 26.0

    /// The keys placed from `top` down, in a picture `width` wide.
    static func layout(width: Double, top: Double) -> [Placed] {
        let lines: [[Key]] = [
            LifecycleState.allCases.map(Key.state),
            [.gauge, .cross, .mark, .event, .task, .locked],
            [.sceneCaption] + SceneState.allCases.map(Key.sceneState),
        ]
        var placed: [Placed] = []
        var y = top
        for line in lines {
            var x = 12.0
            for key in line {
                let keyWidth = key.textOffset + TextBox.width(of: key.text, fontSize: 11)
                if x > 12, x + keyWidth > width - 12 {
                    x = 12
                    y += rowHeight
                }
                placed.append(Placed(key: key, x: x, y: y))
                x += keyWidth + 18
            }
            y += rowHeight
        }
        return placed
    }
}

extension SVGTimeline {
    func drawLegend(_ canvas: inout SVGCanvas) {
        for item in legend {
            let (x, y) = (item.x, item.y)
            switch item.key {
            case .state(let state):
                canvas.svg.element("rect", ["x": .number(x), "y": .number(y), "width": 14, "height": 12,
                                            "fill": .string(TimelinePalette.color(of: state))])
            case .sceneState(let state):
                canvas.svg.element("rect", ["x": .number(x), "y": .number(y), "width": 14, "height": 12,
                                            "fill": .string(TimelinePalette.color(of: state))])
            case .sceneCaption:
                break
            case .gauge:
                canvas.svg.element("rect", ["x": .number(x), "y": .number(y + 1), "width": .number(Self.gaugeWidth),
                                            "height": .number(Self.gaugeHeight), "fill": "none",
                                            "stroke": .string(TimelinePalette.budget)])
                canvas.svg.element("rect", ["x": .number(x), "y": .number(y + 1), "width": 14,
                                            "height": .number(Self.gaugeHeight),
                                            "fill": .string(TimelinePalette.used)])
            case .cross:
                Self.cross(at: x + 6, y: y + 6, color: TimelinePalette.failure, into: &canvas.svg)
            case .mark:
                canvas.svg.element("line", ["x1": .number(x + 2), "y1": .number(y - 1), "x2": .number(x + 2),
                                            "y2": .number(y + 12), "stroke": .string(TimelinePalette.mark),
                                            "stroke-width": 2])
            case .event:
                canvas.svg.element("line", ["x1": .number(x + 2), "y1": .number(y - 1), "x2": .number(x + 2),
                                            "y2": .number(y + 12), "stroke": .string(TimelinePalette.event),
                                            "stroke-dasharray": "4 3"])
            case .task:
                canvas.svg.element("rect", ["x": .number(x), "y": .number(y), "width": .number(Self.gaugeWidth),
                                            "height": .number(Self.taskBarHeight), "fill": "#ffffff",
                                            "stroke": .string(TimelinePalette.budget)])
                canvas.svg.element("rect", ["x": .number(x), "y": .number(y + 2), "width": 24,
                                            "height": .number(Self.taskBarHeight - 4),
                                            "fill": .string(TimelinePalette.used)])
                canvas.svg.element("line", ["x1": .number(x + 30), "y1": .number(y - 2), "x2": .number(x + 30),
                                            "y2": .number(y + Self.taskBarHeight + 2),
                                            "stroke": .string(TimelinePalette.expiring), "stroke-width": 2.5])
            case .locked:
                canvas.svg.element("rect", ["x": .number(x), "y": .number(y), "width": 14, "height": 12,
                                            "fill": .string(TimelinePalette.locked),
                                            "fill-opacity": .number(TimelinePalette.lockedOpacity),
                                            "stroke": .string(TimelinePalette.locked)])
            }
            canvas.label(item.key.text, fontSize: 11, spots: [.init(x: x + item.key.textOffset, y: y + 10)])
        }
    }
}

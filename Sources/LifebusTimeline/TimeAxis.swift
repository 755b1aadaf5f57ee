/// Maps journal milliseconds to horizontal pixels, to scale, between `startX` and `endX`: one scale (pixels per
/// ms) for the whole picture, except that long idle gaps are cut out and drawn as breaks `breakWidth` wide.
///
/// The rule for a break: the *busy time* is the sum of the gaps shorter than `minimumIdleMs` (1 s) between two
/// consecutive moments (times something happens) — the stretches where something happens at least every second.
/// A gap is long, and becomes a break, when it is longer than `minimumIdleMs` and than `busyMultiple` (2) times
/// the busy time. So a 10 s budget wait, a late answer's 2 s, or a manual clock's `advance 3600` in a run that is
/// busy for a second or less is a break, while a run with something every second, or busy for longer than half
/// of its gaps, has none. When
/// nothing is left to draw to scale (every gap is a break: instants far apart, as under a manual clock), the breaks
/// share the width.
///
/// A plain value. Invariants: `anchors` is the sorted, unique moments; `x(_:)` is monotonic, clamps times outside
/// the anchors to the ends, and between two anchors not separated by a break is
/// `x(a) + (t - a) * pixelsPerMs`; `breaks` are in time order, each `drawnBreakWidth` wide: `breakWidth`, or more when
/// they share the width.
public struct TimeAxis: Sendable, Equatable {
    /// A cut idle stretch: drawn between `startX` and `endX`, standing for `durationMs` (from `startMs`).
    public struct Break: Sendable, Equatable {
        public var startMs: Double
        public var durationMs: Double
        public var startX: Double
        public var endX: Double

        /// `+59 min 40 s`, `+10 s`, `+2 h 5 min`: how long the cut stretch lasted.
        public var label: String { "+" + TimeAxis.duration(durationMs) }
    }

    /// A stretch of the axis drawn to scale, between two breaks (or an end).
    public struct Segment: Sendable, Equatable {
        public var startMs: Double
        public var endMs: Double
    }

    public static let minimumIdleMs = 1_000.0
    public static let busyMultiple = 2.0
    public static let breakWidth = 64.0

    /// How wide each break is drawn.
    public private(set) var drawnBreakWidth = Self.breakWidth
    public private(set) var anchors: [Double] = []
    public private(set) var breaks: [Break] = []
    public private(set) var segments: [Segment] = []
    /// The scale of every stretch not cut.
    public private(set) var pixelsPerMs: Double = 0
    public let startX: Double
    public let endX: Double

    /// An axis through `times` (any order, repeats allowed) drawn from x = `startX` to `endX`.
    public init(times: [Double], startX: Double, endX: Double) {
        self.startX = startX
        self.endX = max(startX, endX)
        anchors = Set(times).sorted()
        let gaps = zip(anchors, anchors.dropFirst()).map { $1 - $0 }
        let busy = gaps.filter { $0 < Self.minimumIdleMs }.reduce(0, +)
        let threshold = max(Self.busyMultiple * busy, Self.minimumIdleMs)
        let cut = gaps.map { $0 > threshold }
        let drawnMs = zip(gaps, cut).filter { !$0.1 }.map(\.0).reduce(0, +)
        let breakCount = Double(cut.filter { $0 }.count)
        let room = self.endX - startX - breakCount * drawnBreakWidth
        pixelsPerMs = drawnMs > 0 ? max(0, room) / drawnMs : 0
        if drawnMs == 0 && breakCount > 0 { drawnBreakWidth = (self.endX - startX) / breakCount }
        guard let first = anchors.first else { return }
        var x = startX
        var segmentStart = first
        for (index, gap) in gaps.enumerated() {
            let from = anchors[index]
            if cut[index] {
                segments.append(Segment(startMs: segmentStart, endMs: from))
                breaks.append(Break(startMs: from, durationMs: gap, startX: x, endX: x + drawnBreakWidth))
                x += drawnBreakWidth
                segmentStart = anchors[index + 1]
            } else {
                x += gap * pixelsPerMs
            }
        }
        segments.append(Segment(startMs: segmentStart, endMs: anchors[anchors.count - 1]))
    }

    /// The x of `time`: to scale inside a segment, across a break linear over its width, clamped outside.
    public func x(_ time: Double) -> Double {
        guard let first = anchors.first else { return startX }
        var x = startX
        var previousEnd = first
        for (index, segment) in segments.enumerated() {
            if index > 0 { x += drawnBreakWidth }
            if time < segment.startMs {
                // Inside the break before this segment (or before the first anchor: clamped).
                guard index > 0 else { return startX }
                let fraction = (time - previousEnd) / (segment.startMs - previousEnd)
                return x - drawnBreakWidth + fraction * drawnBreakWidth
            }
            if time <= segment.endMs { return x + (time - segment.startMs) * pixelsPerMs }
            x += (segment.endMs - segment.startMs) * pixelsPerMs
            previousEnd = segment.endMs
        }
        return x
    }

    /// Where to label the axis: in each segment its start and the round times (1, 2 or 5 × a power of ten ms)
    /// at least `spacing` pixels apart, inside the segment.
    public func ticks(spacing: Double) -> [Double] {
        let step = Self.roundStep(atLeast: pixelsPerMs > 0 ? spacing / pixelsPerMs : .infinity)
        var ticks: [Double] = []
        for segment in segments {
            ticks.append(segment.startMs)
            guard step.isFinite else { continue }
            var tick = (segment.startMs / step).rounded(.up) * step
            while tick <= segment.endMs {
                if (tick - segment.startMs) * pixelsPerMs >= spacing / 2 { ticks.append(tick) }
                tick += step
            }
        }
        return ticks
    }

    /// The smallest of 1, 2, 5 × 10^k ms (k ≥ -3) that is at least `minimum`.
    static func roundStep(atLeast minimum: Double) -> Double {
        guard minimum.isFinite else { return .infinity }
        var power = 0.001
        while true {
            for factor in [1.0, 2.0, 5.0] where factor * power >= minimum { return factor * power }
            power *= 10
        }
    }

    /// `59 min 40 s`, `10 s`, `2.5 s`, `850 ms`, `2 h 5 min`: a duration as people say it (seconds rounded from a
    /// minute up, minutes from an hour up).
    public static func duration(_ milliseconds: Double) -> String {
        if milliseconds < 1_000 { return "\(SVGValue.number(milliseconds).text) ms" }
        if milliseconds < 60_000 { return "\(SVGValue.number(milliseconds / 1_000).text) s" }
        let seconds = Int64((milliseconds / 1_000).rounded())
        if seconds < 3_600 {
            return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s"
        }
        let minutes = (seconds + 30) / 60
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}

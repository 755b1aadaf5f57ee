/// Maps journal milliseconds to horizontal pixels so that long runs stay legible: the times where something
/// happens are anchors; the stretch between two anchors is drawn to scale but at least `minimumSegment` wide (a
/// transition never shrinks to nothing), and a stretch longer than `idleGapMs` is compressed to `breakWidth` and
/// shown as a break.
///
/// A plain value. Invariants: `anchors` is sorted and unique and `positions[i]` is the x of `anchors[i]`,
/// strictly increasing; `x(_:)` is monotonic and clamps times outside the anchors to the ends.
public struct TimeAxis: Sendable, Equatable {
    /// A compressed idle stretch: drawn between `startX` and `endX`, standing for `durationMs`.
    public struct Break: Sendable, Equatable {
        public var startX: Double
        public var endX: Double
        public var durationMs: Double
    }

    public static let pixelsPerMs = 0.25
    public static let minimumSegment = 52.0
    public static let idleGapMs = 2_000.0
    public static let breakWidth = 110.0

    public private(set) var anchors: [Double] = []
    public private(set) var positions: [Double] = []
    public private(set) var breaks: [Break] = []

    /// An axis through `times` (any order, repeats allowed) starting at x = `originX`.
    public init(times: [Double], originX: Double) {
        for time in Set(times).sorted() {
            guard let last = anchors.last, let lastX = positions.last else {
                anchors.append(time)
                positions.append(originX)
                continue
            }
            let gap = time - last
            let width: Double
            if gap > Self.idleGapMs {
                width = Self.breakWidth
                breaks.append(Break(startX: lastX, endX: lastX + width, durationMs: gap))
            } else {
                width = max(Self.minimumSegment, gap * Self.pixelsPerMs)
            }
            anchors.append(time)
            positions.append(lastX + width)
        }
    }

    /// The x of the last anchor (the right end of the axis).
    public var endX: Double { positions.last ?? 0 }

    /// The x of the first anchor.
    public var startX: Double { positions.first ?? 0 }

    /// The x of `time`: exact at anchors, linear between two, clamped outside.
    public func x(_ time: Double) -> Double {
        guard let first = anchors.first, let last = anchors.last else { return 0 }
        if time <= first { return positions[0] }
        if time >= last { return positions[positions.count - 1] }
        var low = 0
        var high = anchors.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if anchors[middle] <= time { low = middle } else { high = middle }
        }
        let fraction = (time - anchors[low]) / (anchors[high] - anchors[low])
        return positions[low] + fraction * (positions[high] - positions[low])
    }

    /// The anchors to label on the axis: each at least `spacing` pixels right of the previous label.
    public func labelledAnchors(spacing: Double) -> [Double] {
        var chosen: [Double] = []
        var lastX = -Double.infinity
        for (time, position) in zip(anchors, positions) where position - lastX >= spacing {
            chosen.append(time)
            lastX = position
        }
        return chosen
    }
}

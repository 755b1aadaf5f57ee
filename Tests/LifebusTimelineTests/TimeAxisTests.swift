import Testing

@testable import LifebusTimeline

/// The time axis is to scale, except that long idle gaps are cut into breaks (the rule in `TimeAxis`).
@Suite struct TimeAxisTests {
    @Test func withoutGapsTheAxisIsToScaleWithNoBreak() {
        let axis = TimeAxis(times: [1_500, 0, 100, 250, 900, 100], startX: 100, endX: 1_600)
        #expect(axis.anchors == [0, 100, 250, 900, 1_500])
        #expect(axis.breaks.isEmpty)
        #expect(axis.pixelsPerMs == 1)
        for time in [0.0, 37.5, 250, 1_234, 1_500] {
            #expect(axis.x(time) == 100 + time)
        }
        #expect(axis.x(-10) == 100 && axis.x(99_999) == 1_600, "clamped outside")
    }

    @Test func oneIdleGapIsOneBreakWithItsDurationAsLabel() throws {
        let gap = 3_580_000.0
        let times = [0, 5, 40, 300, 300 + gap, 310 + gap]
        let axis = TimeAxis(times: times, startX: 240, endX: 1_224)
        try #require(axis.breaks.count == 1)
        let cut = axis.breaks[0]
        #expect(cut.durationMs == gap && cut.startMs == 300)
        #expect(cut.label == "+59 min 40 s")
        #expect(cut.endX - cut.startX == TimeAxis.breakWidth && axis.drawnBreakWidth == TimeAxis.breakWidth)
        #expect(axis.segments == [.init(startMs: 0, endMs: 300), .init(startMs: 300 + gap, endMs: 310 + gap)])
        // Both sides to the same scale: 310 ms drawn over the width left by the break.
        let scale = (1_224 - 240 - TimeAxis.breakWidth) / 310
        #expect(abs(axis.pixelsPerMs - scale) < 1e-9)
        #expect(abs((axis.x(40) - axis.x(5)) - 35 * scale) < 1e-9)
        #expect(abs((axis.x(310 + gap) - axis.x(300 + gap)) - 10 * scale) < 1e-9)
        #expect(abs(axis.x(300) - (240 + 300 * scale)) < 1e-9)
        #expect(axis.x(300 + gap) == cut.endX)
        #expect(abs(axis.x(310 + gap) - 1_224) < 1e-9)
        #expect(axis.x(300 + gap / 2) > cut.startX && axis.x(300 + gap / 2) < cut.endX, "inside the cut")
    }

    /// A gap is long past 1 s and past twice the busy time (the sum of the gaps under 1 s).
    @Test func theRuleForALongGap() {
        func breaks(_ times: [Double]) -> Int { TimeAxis(times: times, startX: 0, endX: 1_000).breaks.count }
        #expect(breaks([0, 100, 100 + 1_000]) == 0, "1 s after 100 ms busy: not past 1 s")
        #expect(breaks([0, 100, 100 + 1_001]) == 1)
        #expect(breaks([0, 600, 600 + 1_200]) == 0, "1.2 s after 600 ms busy: not past twice 600 ms")
        #expect(breaks([0, 600, 600 + 1_201]) == 1)
        #expect(breaks([0, 900, 1_800, 2_700, 2_700 + 5_400]) == 0, "not past twice 2.7 s of busy time")
        #expect(breaks([0, 900, 1_800, 2_700, 2_700 + 5_401]) == 1)
        #expect(breaks([0, 1_000, 2_000, 3_000]) == 0, "something every second: no break")
        #expect(breaks([0, 10, 20, 10_020, 10_030, 20_030, 20_040]) == 2, "two waits, two breaks")
    }

    /// Instants far apart (a manual clock's run): nothing is left to draw to scale, the breaks share the width.
    @Test func breaksBetweenInstantsShareTheWidth() {
        let axis = TimeAxis(times: [0, 3_580_000, 3_580_000, 7_000_000], startX: 100, endX: 1_100)
        #expect(axis.breaks.map(\.label) == ["+59 min 40 s", "+57 min"])
        #expect(axis.drawnBreakWidth == 500)
        #expect(axis.x(0) == 100 && axis.x(3_580_000) == 600 && axis.x(7_000_000) == 1_100)
        #expect(TimeAxis(times: [0, 60_000], startX: 0, endX: 800).breaks.map(\.endX) == [800])
    }

    @Test func durationsAsPeopleSayThem() {
        #expect(TimeAxis.duration(850) == "850 ms")
        #expect(TimeAxis.duration(2_500) == "2.5 s")
        #expect(TimeAxis.duration(10_000) == "10 s")
        #expect(TimeAxis.duration(3_580_000) == "59 min 40 s")
        #expect(TimeAxis.duration(120_000) == "2 min")
        #expect(TimeAxis.duration(3_600_000) == "1 h")
        #expect(TimeAxis.duration(7_500_000) == "2 h 5 min")
    }

    @Test func ticksAreRoundTimesInsideTheSegmentsAndApart() {
        let axis = TimeAxis(times: [3, 5, 40, 300, 300 + 3_580_000, 310 + 3_580_000], startX: 240, endX: 1_224)
        let ticks = axis.ticks(spacing: 80)
        #expect(ticks.first == 3 && ticks.contains(300 + 3_580_000), "each segment's start")
        #expect(ticks.contains(50) && ticks.contains(150) && !ticks.contains(125), "every 50 ms at 3 px per ms")
        for (a, b) in zip(ticks, ticks.dropFirst()) {
            #expect(b > a && axis.x(b) - axis.x(a) >= 40, "\(a) and \(b)")
        }
        #expect(ticks.allSatisfy { tick in axis.segments.contains { $0.startMs <= tick && tick <= $0.endMs } })
    }
}

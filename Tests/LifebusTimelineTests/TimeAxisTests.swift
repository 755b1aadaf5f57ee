import Testing

@testable import LifebusTimeline

/// The time axis keeps long runs legible: a minimum width per step, idle stretches compressed into breaks.
@Suite struct TimeAxisTests {
    @Test func anchorsAreMonotonicAndClamped() {
        let axis = TimeAxis(times: [30, 10, 20, 10], originX: 100)
        #expect(axis.anchors == [10, 20, 30])
        #expect(axis.x(10) == 100)
        #expect(axis.x(0) == 100)
        #expect(axis.x(99) == axis.endX)
        #expect(axis.x(15) > axis.x(10) && axis.x(15) < axis.x(20))
    }

    @Test func everyStepGetsAMinimumWidth() {
        let axis = TimeAxis(times: [0, 0.001, 0.002], originX: 0)
        #expect(axis.x(0.001) == TimeAxis.minimumSegment)
        #expect(axis.endX == 2 * TimeAxis.minimumSegment)
    }

    @Test func longerStepsAreDrawnToScale() {
        let axis = TimeAxis(times: [0, 1_000], originX: 0)
        #expect(axis.endX == 1_000 * TimeAxis.pixelsPerMs)
        #expect(axis.breaks.isEmpty)
    }

    @Test func idleStretchesBecomeBreaks() {
        let axis = TimeAxis(times: [0, 100, 60_100], originX: 0)
        #expect(axis.breaks.count == 1)
        #expect(axis.breaks[0].durationMs == 60_000)
        #expect(axis.endX - axis.x(100) == TimeAxis.breakWidth)
    }

    @Test func labelsKeepTheirDistance() {
        let axis = TimeAxis(times: [0, 0.1, 0.2, 0.3, 0.4], originX: 0)
        let labelled = axis.labelledAnchors(spacing: 64)
        #expect(labelled == [0, 0.2, 0.4])  // anchors 52 px apart
    }
}

/// Labels that would run into each other go to the next row.
@Suite struct LabelRowsTests {
    @Test func aLabelTakesTheFirstRowWhereItFits() {
        var rows = LabelRows(rows: 2, characterWidth: 5)
        #expect(rows.place("ten chars.", at: 0) == 0)  // ends at 50
        #expect(rows.place("x", at: 20) == 1)
        #expect(rows.place("x", at: 60) == 0)
        #expect(rows.place("x", at: 61) == 1)
        #expect(rows.place("x", at: 62) == 1, "the last row takes what fits nowhere")
    }
}

import Testing

@testable import LifebusTimeline

/// Stacking gauges: first free row, then the row that ends first.
@Suite struct GaugeRowsTests {
    @Test func aGaugeTakesTheFirstRowWhereThePreviousHasEnded() {
        var rows = GaugeRows(maximum: 2)
        #expect(rows.place(from: 0, to: 50) == 0)
        #expect(rows.place(from: 20, to: 70) == 1)
        #expect(rows.place(from: 50, to: 90) == 0)
        #expect(rows.place(from: 60, to: 100) == 1, "past the maximum: the row that ends first")
        #expect(rows.count == 2)
        #expect(GaugeRows(maximum: 3).count == 1, "an empty lane keeps one row")
    }
}

import LifebusTimeline
import Testing

/// No label drawn over another and nothing past the right edge, in crowded pictures (bursts of callbacks a
/// fraction of a millisecond apart, long app ids and event labels, marks, a scene app's sub-lanes, an idle break)
/// at several widths: every text's box, estimated by `TextBox` (the layout's own estimator, an upper bound of the
/// glyphs' widths checked in Chromium by `TimelinePictureTests`), is clear of every other and inside the picture.
@Suite struct LabelLayoutTests {
    static let widths = [SVGTimeline.minimumWidth, SVGTimeline.defaultWidth, 1_920]

    static func boxes(_ svg: String) -> [(text: String, box: TextBox)] {
        SVGElement.all("text", in: svg).map { element in
            let bold = element.attributes["font-weight"] == "bold"
            let anchor = TextBox.Anchor(rawValue: element.attributes["text-anchor"] ?? "start") ?? .start
            let box = TextBox(element.text, x: element.number("x") ?? .nan, y: element.number("y") ?? .nan,
                              fontSize: element.number("font-size") ?? 11, bold: bold, anchor: anchor)
            return (element.text, box)
        }
    }

    @Test(arguments: widths)
    func noTwoLabelsIntersect(width: Double) {
        for timeline in [BusyTimeline.timeline(), BusyTimeline.timeline(idleGapMs: 0)] {
            let svg = SVGTimeline(timeline, width: width).render()
            let texts = Self.boxes(svg)
            #expect(texts.count > 60, "the picture has its labels: \(texts.count)")
            for (index, first) in texts.enumerated() {
                for second in texts[(index + 1)...] where first.box.intersects(second.box) {
                    Issue.record(
                        "at \(width) px, \"\(first.text)\" \(first.box) overlaps \"\(second.text)\" \(second.box)"
                    )
                }
            }
        }
    }

    @Test(arguments: widths)
    func nothingIsDrawnPastTheEdges(width: Double) {
        let svg = SVGTimeline(BusyTimeline.timeline(), width: width).render()
        #expect(svg.contains("width=\"\(Int(width))\""))
        for (text, box) in Self.boxes(svg) {
            #expect(box.minX >= 0 && box.maxX <= width, "at \(width) px, \"\(text)\" spans \(box.minX)…\(box.maxX)")
        }
        for rect in SVGElement.all("rect", in: svg) {
            let x = rect.number("x") ?? .nan
            let right = x + (rect.number("width") ?? .nan)
            #expect(x >= 0 && right <= width, "at \(width) px, a rect spans \(x)…\(right): \(rect.attributes)")
        }
        for line in SVGElement.all("line", in: svg) {
            for key in ["x1", "x2"] {
                let x = line.number(key) ?? .nan
                #expect(x >= 0 && x <= width, "at \(width) px, a line's \(key) is \(x)")
            }
        }
        for path in SVGElement.all("path", in: svg) {
            // M/L x y pairs: every first number of a pair is an x.
            let numbers = (path.attributes["d"] ?? "").split { "ML ".contains($0) }.compactMap { Double($0) }
            for x in stride(from: 0, to: numbers.count, by: 2).map({ numbers[$0] }) {
                #expect(x >= 0 && x <= width, "at \(width) px, a path reaches x = \(x)")
            }
        }
    }

    @Test func labelsLeftOutAreCountedAndTheirElementsKeepTheirDetails() throws {
        let svg = SVGTimeline(BusyTimeline.timeline(), width: SVGTimeline.minimumWidth).render()
        let note = Self.boxes(svg).map(\.text).first { $0.contains("left out where") }
        #expect(note != nil, "the crowded picture at 640 px leaves labels out and says so")
        #expect(svg.contains("<title>\(BusyTimeline.short) didEnterBackground (inactive → notRunning): no answer of "
            + "5000 ms budget, watchdog, caused by home</title>"))
        // The committed journal's two apps fit at the default width: every gauge keeps its name and latency.
        let fixture = Timeline(entries: try TimelineFixture.entries())
        let uncrowded = SVGTimeline(fixture).render()
        #expect(!uncrowded.contains("left out where"))
        let gaugeLabels = SVGElement.all("text", in: uncrowded).filter {
            ["9", "8"].contains($0.attributes["font-size"])
        }
        let marks = fixture.lanes.flatMap(\.marks).count
        #expect(gaugeLabels.count == 2 * fixture.lanes.flatMap(\.callbacks).count + marks)
    }

    @Test func aLaneNameTooLongForItsColumnIsShortenedWithItsFullNameInItsTitle() {
        let svg = SVGTimeline(BusyTimeline.timeline()).render()
        let names = SVGElement.all("text", in: svg).filter { $0.attributes["font-size"] == "12" }.map(\.text)
        #expect(names.contains { $0.hasPrefix("…") && BusyTimeline.mail.hasSuffix($0.dropFirst()) }, "\(names)")
        #expect(names.contains(BusyTimeline.short))
        #expect(svg.contains("<title>\(BusyTimeline.mail)</title>"))
    }

    @Test func scenesGetTheirSubLanesAtEveryWidth() {
        for width in Self.widths {
            let picture = SVGTimeline(BusyTimeline.timeline(), width: width)
            let notes = picture.timeline.lanes.firstIndex { $0.app == BusyTimeline.notes }
            #expect(notes != nil)
            guard let notes else { continue }
            let lane = picture.timeline.lanes[notes]
            #expect(lane.scenes.count == 9)
            var previous = picture.stateBarTop(lane: notes) + SVGTimeline.stateBarHeight
            for position in lane.scenes.indices {
                let top = picture.sceneLaneTop(lane: notes, scene: position)
                #expect(top >= previous, "scene \(position) starts below what is above it")
                for callback in lane.scenes[position].callbacks.indices {
                    let gauge = picture.sceneGaugeTop(lane: notes, scene: position, callback: callback)
                    #expect(gauge > picture.sceneBarTop(lane: notes, scene: position))
                    previous = max(previous, gauge + SVGTimeline.gaugeHeight)
                }
            }
            #expect(picture.laneTop(notes + 1) >= previous)
        }
    }

    @Test func gaugesTooCloseTogetherAreStackedInRows() {
        let picture = SVGTimeline(BusyTimeline.timeline())
        let mail = 0
        let tops = picture.timeline.lanes[mail].callbacks.indices.map { picture.gaugeTop(lane: mail, callback: $0) }
        #expect(Set(tops.prefix(4)).count == 4, "four callbacks 0.2 ms apart take four rows: \(tops)")
    }
}

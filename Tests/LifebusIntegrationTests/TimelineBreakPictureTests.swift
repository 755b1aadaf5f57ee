import Glibc
import LifebusIO
import LifebusJSON
import LifebusTimeline
import Testing

/// `lifebus trace` pictures in headless Chromium: a real run with a long idle gap (a manual clock's `advance
/// 3580s`) drawn with one labelled break, `--width`, and the label-width estimator the layout relies on checked
/// against the widths Chromium measures.
@Suite struct TimelineBreakPictureTests {
    static let app = "com.example.Idle"

    @Test func aLongIdleGapIsDrawnAsOneLabelledBreakThatChromiumShows() throws {
        let broker = try BrokerFixture(arguments: ["--clock", "manual"])
        let app = try broker.subscribe(Self.app)
        defer { app.signal(SIGTERM) }
        #expect(try broker.reached(Self.app, "active"))
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.cli(["clock", "advance", "3580s"]).status == 0)
        #expect(try broker.cli(["fire", "launch", Self.app]).status == 0)
        #expect(try broker.reached(Self.app, "active"))

        let folder = makeTemporaryFolder("lifebus-timeline-break")
        defer { FolderEntries.removeTree(folder) }
        let svg = "\(folder)/timeline.svg"
        let png = "\(folder)/timeline.png"
        let drawn = try broker.cli(["trace", "-o", svg])
        #expect(drawn.status == 0, "\(drawn.err)")
        let text = try #require(readFile(broker.journalPath))
        let entries = try text.split(separator: "\n").compactMap { line throws in
            try JournalEntries.decode(try JSONParser.parse(String(line)))
        }
        let picture = SVGTimeline(Timeline(entries: entries))
        try #require(picture.axis.breaks.count == 1, "one idle gap, one break: \(picture.axis.breaks)")
        let cut = picture.axis.breaks[0]
        #expect(cut.label == "+59 min 40 s")
        let document = try #require(readFile(svg))
        #expect(document.contains(">+59 min 40 s</text>"))

        let rendered = try HelperScripts.screenshot(
            svg: svg, png: png, width: Int(picture.width), height: Int(picture.height)
        )
        #expect(rendered.status == 0, "chromium: \(rendered.err)")
        let barY = picture.stateBarTop(lane: 0) + SVGTimeline.stateBarHeight / 2
        let middle = SVGTimeline.breakMiddle(cut)
        let lane = picture.timeline.lanes[0]
        let before = try #require(lane.spans.last { $0.startMs <= cut.startMs })
        let after = try #require(lane.spans.last)
        let probes = [
            ColourProbe(
                point: "\(middle),\(barY)", hex: TimelinePalette.background, what: "the cut through the state bar"),
            ColourProbe(
                point: "\(cut.startX + 6),\(barY)", hex: TimelinePalette.color(of: before.state),
                what: "the bar left of the cut"),
            ColourProbe(
                point: "\(picture.axis.endX - 6),\(barY)", hex: TimelinePalette.color(of: after.state),
                what: "the bar after the break"),
        ]
        let labelY = Int(picture.lanesBottom + 30)
        let labelBox = "ink:\(Int(middle) - 30),\(labelY),\(Int(middle) + 30),\(labelY + 14)"
        let sampled = try ColourProbes.expectColours(in: png, probes, extra: [labelBox])
        #expect((Int(sampled.extra[0]) ?? 0) > 30, "the break's label is written under the axis")
    }

    @Test func widthSizesThePictureAndIsChecked() throws {
        let journal = TimelinePictureTests.journal
        let wide = try runCLI(["trace", "--journal", journal, "--width", "900"])
        #expect(wide.status == 0, "\(wide.err)")
        #expect(wide.out.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\""))
        let narrow = try runCLI(["trace", "--journal", journal, "--width", "100"])
        #expect(narrow.status == 2)
        #expect(narrow.err.contains("--width 100: the picture needs 640 to 100000 pixels (default 1280)"),
                "\(narrow.err)")
        let text = try runCLI(["trace", "--journal", journal, "--format", "text", "--width", "900"])
        #expect(text.status == 2)
        #expect(text.err.contains("--width is for --format svg (not text)"), "\(text.err)")
        let standard = try runCLI(["trace", "--journal", journal])
        #expect(standard.out.contains("width=\"1280\""))
    }

    /// Every text of the pictures (both committed journals, at the default and the narrowest width) and every
    /// character the estimator classifies, regular and bold, as Chromium lays them out: `TextBox.width` is never
    /// narrower than the width Chromium measures (`getComputedTextLength`), and its ascent and descent hold the
    /// text's box (`getBBox`). The font is DejaVu Sans (fonts-dejavu-core, fontconfig's default on Debian).
    @Test func theLabelWidthEstimateIsAnUpperBoundOfChromiumsWidths() throws {
        let folder = makeTemporaryFolder("lifebus-timeline-glyphs")
        defer { FolderEntries.removeTree(folder) }
        let html = "\(folder)/measure.html"
        var page = "<!DOCTYPE html><html><body>"
        let journals = [TimelinePictureTests.journal, TimelineScenePictureTests.journal]
        for journal in journals {
            for width in ["1280", "640"] {
                let drawn = try runCLI(["trace", "--journal", journal, "--width", width])
                #expect(drawn.status == 0, "\(drawn.err)")
                page += drawn.out.split(separator: "\n").dropFirst().joined(separator: "\n")
            }
        }
        var characters = (32...126).compactMap { Unicode.Scalar($0).map(Character.init) }
        characters += ["…", "·", "→", "–", "—", "µ"]
        let all = XMLText.escape(String(characters))
        page += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\" "
            + "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">"
            + "<text font-size=\"20\">\(all)</text><text font-size=\"20\" font-weight=\"bold\">\(all)</text>"
        for character in characters {
            let one = XMLText.escape(String(character))
            page += "<text font-size=\"20\">\(one)x</text><text font-size=\"20\" font-weight=\"bold\">\(one)x</text>"
        }
        page += "</svg><pre id=\"out\"></pre><script>"
            + "var out = [];"
            + "document.querySelectorAll('text').forEach(function (t) {"
            + "  var s = ''; t.childNodes.forEach(function (n) { if (n.nodeType === 3) s += n.nodeValue; });"
            + "  var style = getComputedStyle(t);"
            + "  var box = t.getBBox(), y = parseFloat(t.getAttribute('y') || '0');"
            + "  out.push(JSON.stringify([s, parseFloat(style.fontSize), parseInt(style.fontWeight, 10),"
            + "    t.getComputedTextLength(), box.y - y, box.y + box.height - y]));"
            + "});"
            + "document.getElementById('out').textContent = out.join('\\n');"
            + "</script></body></html>"
        let file = try #require(fopen(html, "w"))
        fputs(page, file)
        fclose(file)

        var arguments = ["--headless", "--disable-gpu", "--dump-dom", html]
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 0) }
        let child = try ChildProcess(HelperScripts.executable("chromium"), arguments)
        let dom = child.stdout.readAll(timeout: .seconds(60))
        if child.isAlive { child.signal(SIGKILL) }
        #expect(child.wait() == 0)
        let start = try #require(dom.firstRange(of: "<pre id=\"out\">"))
        let end = try #require(dom[start.upperBound...].firstRange(of: "</pre>"))
        let lines = dom[start.upperBound..<end.lowerBound]
            .replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&amp;", with: "&")
            .split(separator: "\n")
        #expect(lines.count > 200, "Chromium measured the texts: \(lines.count)")
        for line in lines {
            let measured = try #require(try JSONParser.parse(String(line)).arrayValue)
            try #require(measured.count == 6)
            let text = try #require(measured[0].stringValue)
            let size = try #require(measured[1].doubleValue)
            let bold = (measured[2].doubleValue ?? 400) >= 600
            let width = try #require(measured[3].doubleValue)
            let estimate = TextBox.width(of: text, fontSize: size, bold: bold)
            #expect(estimate >= width - 0.01,
                    "\"\(text)\" at \(size) px\(bold ? " bold" : ""): Chromium \(width), estimate \(estimate)")
            // Above and below the baseline: Chromium's box within the estimate's ascent and descent.
            let top = try #require(measured[4].doubleValue)
            let bottom = try #require(measured[5].doubleValue)
            let box = TextBox(text, x: 0, y: 0, fontSize: size, bold: bold)
            #expect(top >= box.minY - 0.01 && bottom <= box.maxY + 0.01,
                    "\"\(text)\" at \(size) px: Chromium's box from \(top) to \(bottom) around the baseline")
        }
    }
}

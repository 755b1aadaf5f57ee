import LifebusIO
import Testing

@Suite struct LineFramerTests {
    /// Frames `chunks` and returns the lines and what stayed buffered.
    private func frame(_ chunks: [[UInt8]], limit: Int = 1000) throws -> (lines: [[UInt8]], buffered: Int) {
        var framer = LineFramer(maxLineLength: limit)
        var lines: [[UInt8]] = []
        for chunk in chunks {
            try chunk.withUnsafeBytes { bytes in
                try framer.feed(bytes) { lines.append([UInt8]($0)) }
            }
        }
        return (lines, framer.bufferedByteCount)
    }

    private func randomStream(_ generator: inout SeededGenerator) -> (stream: [UInt8], lines: [[UInt8]], tail: Int) {
        let lineCount = Int.random(in: 0...12, using: &generator)
        var lines: [[UInt8]] = []
        var stream: [UInt8] = []
        for _ in 0..<lineCount {
            let line = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }.filter { $0 != 0x0A }
            lines.append(line)
            stream += line + [0x0A]
        }
        let tail = Int.random(in: 0...5, using: &generator)
        stream += [UInt8](repeating: 0x41, count: tail)
        return (stream, lines, tail)
    }

    @Test func anySplitOfTheStreamYieldsTheSameLines() throws {
        var generator = SeededGenerator(seed: 0x11FE_B055)
        for _ in 0..<200 {
            let (stream, expected, tail) = randomStream(&generator)
            #expect(try frame([stream]) == (expected, tail))
            #expect(try frame(stream.map { [$0] }) == (expected, tail))
            for cut in 0...stream.count {
                #expect(try frame([Array(stream[..<cut]), Array(stream[cut...])]) == (expected, tail))
            }
            var chunks: [[UInt8]] = []
            var rest = stream[...]
            while !rest.isEmpty {
                let size = Int.random(in: 1...max(1, rest.count), using: &generator)
                chunks.append(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            #expect(try frame(chunks) == (expected, tail))
        }
    }

    @Test func aLineOfExactlyTheLimitPassesAndOneByteMoreThrows() throws {
        let limit = 8
        let exact = [UInt8](repeating: 0x61, count: limit) + [0x0A]
        #expect(try frame([exact], limit: limit).lines == [Array(exact.dropLast())])
        #expect(try frame(exact.map { [$0] }, limit: limit).lines.count == 1)

        let tooLong = [UInt8](repeating: 0x61, count: limit + 1) + [0x0A]
        #expect(throws: LineTooLong(limit: limit)) { try frame([tooLong], limit: limit) }
        #expect(throws: LineTooLong(limit: limit)) { try frame(tooLong.map { [$0] }, limit: limit) }
        let split = [Array(tooLong[..<4]), Array(tooLong[4...])]
        #expect(throws: LineTooLong(limit: limit)) { try frame(split, limit: limit) }
    }

    @Test func aTooLongLineThrowsBeforeItsNewlineArrivesAndNeverBuffersMoreThanTheLimit() {
        let limit = 100
        var framer = LineFramer(maxLineLength: limit)
        var fed = 0
        var thrown: LineTooLong?
        while thrown == nil, fed < 10 * limit {
            do {
                try [UInt8(0x62)].withUnsafeBytes { bytes in
                    try framer.feed(bytes) { _ in Issue.record("no line expected") }
                }
                fed += 1
            } catch let error as LineTooLong {
                thrown = error
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(framer.bufferedByteCount <= limit)
        }
        #expect(thrown == LineTooLong(limit: limit))
        #expect(fed == limit)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func aLineWithinOneBufferIsHandedOutWithoutCopying() throws {
        var framer = LineFramer(maxLineLength: 100)
        let input: [UInt8] = Array("one\ntwo\nthr".utf8)
        try input.withUnsafeBytes { bytes in
            try framer.feed(bytes) { line in
                let start = bytes.baseAddress!
                #expect(line.baseAddress! >= start && line.baseAddress! + line.count <= start + bytes.count)
            }
        }
        #expect(framer.bufferedByteCount == 3)
    }

    @Test func feedingStopsAfterALineWhenAskedAndReportsWhatItConsumed() throws {
        var framer = LineFramer(maxLineLength: 100)
        var lines: [String] = []
        let consumed = try Array("ab\ncd\nef\n".utf8).withUnsafeBytes { bytes in
            try framer.feedUntilStopped(bytes) { line in
                lines.append(String(decoding: line, as: UTF8.self))
                return lines.count < 2
            }
        }
        #expect(lines == ["ab", "cd"])
        #expect(consumed == 6)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func aLoweredLimitAppliesToTheLineAlreadyBuffered() {
        var framer = LineFramer(maxLineLength: 10)
        #expect(throws: Never.self) {
            try Array("12345".utf8).withUnsafeBytes { bytes in try framer.feed(bytes) { _ in } }
        }
        framer.maxLineLength = 4
        #expect(throws: LineTooLong(limit: 4)) {
            try Array("\n".utf8).withUnsafeBytes { bytes in try framer.feed(bytes) { _ in } }
        }
    }
}

import Glibc
import LifebusIO
import Testing

@Suite struct ConnectionEndTests {
    @Test func aLineOverTheLimitEndsReadingWithLineTooLongAndTheOwnerCanStillAnswer() throws {
        try withConnectedPair { loop, pair in
            pair.server.maxLineLength = 16
            let server = LineRecorder()
            server.record(pair.server)
            let client = LineRecorder()
            client.record(pair.client)
            let exact = patternBytes(16)
            pair.client.writeLine(exact)
            pair.client.writeLine(patternBytes(17))
            pair.client.writeLine(Array("never delivered".utf8))
            try loop.run(until: "line too long") { !server.ends.isEmpty }
            #expect(server.lines == [exact])
            #expect(server.ends == [.lineTooLong(limit: 16)])

            pair.server.writeLine(Array("error: line too long".utf8))
            pair.server.closeAfterFlush()
            #expect(pair.server.isClosed)
            try loop.run(until: "client end") { !client.ends.isEmpty }
            #expect(client.strings == ["error: line too long"])
            #expect(client.ends == [.endOfStream(discardedPartialLine: 0)])
            #expect(server.ends.count == 1)
        }
    }

    @Test func aPeerClosingMidLineEndsWithTheDiscardedByteCount() throws {
        try withConnectedPair { loop, pair in
            let server = LineRecorder()
            server.record(pair.server)
            let descriptor = try #require(pair.client.fileDescriptor)
            let raw = Array("whole\npartial".utf8)
            #expect(write(descriptor, raw, raw.count) == raw.count)
            pair.client.close()
            try loop.run(until: "end of stream") { !server.ends.isEmpty }
            #expect(server.strings == ["whole"])
            #expect(server.ends == [.endOfStream(discardedPartialLine: 7)])
        }
    }

    @Test func closingFromALineHandlerDropsTheRestOfThatRead() throws {
        try withConnectedPair { loop, pair in
            let server = LineRecorder()
            server.record(pair.server) { _ in pair.server.close() }
            pair.client.writeLine(Array("a\nb\nc".utf8))
            try loop.run(until: "server end") { !server.ends.isEmpty }
            #expect(server.strings == ["a"])
            #expect(server.ends == [.closedLocally])
        }
    }

    @Test func aLimitRaisedFromALineHandlerAppliesToTheNextLineOfTheSameRead() throws {
        try withConnectedPair { loop, pair in
            pair.server.maxLineLength = 8
            let server = LineRecorder()
            server.record(pair.server) { _ in pair.server.maxLineLength = 64 }
            let long = String(repeating: "z", count: 40)
            pair.client.writeLine(Array("hello\n\(long)".utf8))
            try loop.run(until: "two lines") { server.lines.count == 2 || !server.ends.isEmpty }
            #expect(server.strings == ["hello", long])
            #expect(server.ends.isEmpty)
        }
    }

    @Test func closingWithPendingWritesCancelsAndReleasesThem() throws {
        try withConnectedPair { loop, pair in
            let server = LineRecorder()
            server.record(pair.server)
            for _ in 0..<4 {
                pair.server.writeLine(patternBytes(2 << 20))
            }
            #expect(pair.server.pendingWriteBytes > 0)
            pair.server.close()
            #expect(pair.server.pendingWriteBytes == 0)
            pair.server.writeLine(Array("ignored after close".utf8))
            try loop.run(until: "server end") { !server.ends.isEmpty }
            #expect(server.ends == [.closedLocally])
        }
    }

    @Test func aPeerClosingWithUnreadDataEndsWithAResetErrorAndClosesTheConnection() throws {
        try withConnectedPair { loop, pair in
            let server = LineRecorder()
            server.record(pair.server)
            pair.server.writeLine(Array("never read".utf8))
            #expect(pair.server.pendingWriteBytes == 0)
            pair.client.close()
            try loop.run(until: "server end") { !server.ends.isEmpty }
            guard case .error(let error) = server.ends.first else {
                Issue.record("expected an error end, got \(server.ends)")
                return
            }
            #expect(error.isConnectionReset)
            #expect(pair.server.isClosed)
            #expect(server.ends.count == 1)
        }
    }

    @Test func writingToAVanishedPeerFailsAndClosesTheConnection() throws {
        try withConnectedPair { loop, pair in
            let server = LineRecorder()
            server.record(pair.server)
            pair.client.close()
            try loop.run(until: "end of stream") { !server.ends.isEmpty }
            for _ in 0..<3 {
                pair.server.writeLine(Array("into the void".utf8))
            }
            try loop.run(until: "write failure closes") { pair.server.isClosed }
            #expect(server.ends == [.endOfStream(discardedPartialLine: 0)])
        }
    }
}

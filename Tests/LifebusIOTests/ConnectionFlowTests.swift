import Glibc
import LifebusIO
import Testing

@Suite struct ConnectionFlowTests {
    @Test func pausingFromALineHandlerHoldsTheRestInOrderUntilResumed() throws {
        try withConnectedPair { loop, pair in
            let server = LineRecorder()
            server.record(pair.server) { line in
                if line == Array("3".utf8) { pair.server.pauseReading() }
            }
            pair.client.writeLine(Array((1...10).map(String.init).joined(separator: "\n").utf8))
            try loop.run(until: "three lines") { server.lines.count == 3 }
            #expect(pair.server.isReadingPaused)
            for _ in 0..<20 {
                loop.runOnce(wait: false)
            }
            #expect(server.strings == ["1", "2", "3"], "nothing is delivered while paused")
            pair.server.resumeReading()
            #expect(server.lines.count == 3, "held lines come on a later turn, not inside resumeReading")
            try loop.run(until: "ten lines") { server.lines.count == 10 }
            #expect(server.strings == (1...10).map(String.init))
            pair.client.writeLine(Array("after".utf8))
            try loop.run(until: "reading again") { server.lines.count == 11 }
            #expect(server.ends.isEmpty)
        }
    }

    @Test func aChattyPeerTakesTurnsWithTheOthers() throws {
        let loop = try EventLoop()
        let socket = TestSocketPath()
        defer { socket.remove() }
        var accepted: [Connection] = []
        let listener = try Listener.listen(on: socket.address, loop: loop) { accepted.append($0) }
        var clients: [Connection] = []
        for _ in 0..<2 {
            Connection.connect(to: socket.address, loop: loop) { if case .success(let c) = $0 { clients.append(c) } }
        }
        try loop.run(until: "two connections") { accepted.count == 2 && clients.count == 2 }
        var order: [Int] = []
        for (index, server) in accepted.enumerated() {
            server.maxLinesPerTurn = 4
            server.startReading(onLine: { _ in order.append(index) }, onEnd: { _ in })
        }
        // Both peers' lines are in the kernel before the loop reads either.
        let burst = Array(repeating: "x", count: 200).joined(separator: "\n")
        for client in clients {
            client.writeLine(Array(burst.utf8))
        }
        try loop.run(until: "all lines") { order.count == 400 }
        let firstDone = min(order.lastIndex(of: 0) ?? 0, order.lastIndex(of: 1) ?? 0)
        let before = order[...firstDone]
        #expect(before.filter { $0 == 0 }.count > 150 && before.filter { $0 == 1 }.count > 150,
                "neither peer finished long before the other: \(before.count) lines in")
        var longestRun = 0
        var run = 0
        for (position, peer) in before.enumerated() {
            run = position > 0 && before[before.index(before.startIndex, offsetBy: position - 1)] == peer ? run + 1 : 1
            longestRun = max(longestRun, run)
        }
        #expect(longestRun <= 8, "at most the budget of two turns in a row, saw \(longestRun)")
        for connection in accepted + clients {
            connection.close()
        }
        listener.close()
        try loop.close()
    }

    @Test func outputOverTheThresholdPausesReadingUntilItDrains() throws {
        try withConnectedPair { loop, pair in
            pair.server.readPauseThreshold = 64 * 1024
            let server = LineRecorder()
            server.record(pair.server)
            pair.server.writeLine(patternBytes(4 << 20))
            #expect(pair.server.pendingWriteBytes > 64 * 1024)
            pair.client.writeLine(Array("request".utf8))
            for _ in 0..<20 {
                loop.runOnce(wait: false)
            }
            #expect(server.lines.isEmpty, "a peer that does not take its output is not read")
            let client = LineRecorder()
            pair.client.maxLineLength = 5 << 20
            client.record(pair.client)
            try loop.run(until: "output taken and request read") { client.lines.count == 1 && server.lines.count == 1 }
            #expect(server.strings == ["request"])
        }
    }

    /// Many small answers (far below the byte threshold) pause reading by their count, before the line cap: a peer
    /// that pipelines 10,000 requests and reads late, then steadily, is answered every one and never dropped.
    @Test func queuedLinesPauseReadingBeforeTheLineCapSoAReadingPeerIsNeverDropped() throws {
        try withConnectedPair { loop, pair in
            pair.server.readPauseThreshold = 1 << 20
            pair.server.readPauseLines = 16
            pair.server.maxPendingWrites = 64
            pair.server.maxPendingWriteBytes = 4 << 20
            let answer = [UInt8](repeating: UInt8(ascii: "a"), count: 1024)
            let server = LineRecorder()
            server.record(pair.server) { _ in pair.server.writeLine(answer) }
            let requests = 10_000
            pair.client.writeLine(Array(repeating: "r", count: requests).joined(separator: "\n").utf8.map { $0 })
            try loop.run(until: "answers queued") { pair.server.pendingWriteBytes > 0 }
            for _ in 0..<50 {
                loop.runOnce(wait: false)  // the client does not read yet: the server's queue grows, then stops
            }
            #expect(server.ends.isEmpty, "paused before the line cap, not dropped")
            #expect(server.lines.count < requests, "a peer that does not take its answers is not read")
            let client = LineRecorder()
            client.record(pair.client)
            try loop.run(until: "every answer", timeout: .seconds(60)) {
                client.lines.count == requests || !client.ends.isEmpty
            }
            #expect(server.lines.count == requests)
            #expect(server.ends.isEmpty && client.ends.isEmpty)
        }
    }

    @Test func aWriteOverTheOutputCapEndsTheConnectionAfterWhatWasQueued() throws {
        try withConnectedPair { loop, pair in
            pair.server.maxPendingWriteBytes = 256 * 1024
            let server = LineRecorder()
            server.record(pair.server)
            var written = 0
            while !pair.server.isClosed {
                pair.server.writeLine(patternBytes(16 * 1024, seed: written))
                written += 1
                #expect(pair.server.pendingWriteBytes <= 256 * 1024 + 16 * 1024 + 1)
            }
            #expect(server.ends.isEmpty, "the end is reported on the next turn, never inside writeLine")
            try loop.run(until: "output limit end") { !server.ends.isEmpty }
            #expect(server.ends == [.outputLimitExceeded])
            let client = LineRecorder()
            client.record(pair.client)
            try loop.run(until: "client end") { !client.ends.isEmpty }
            #expect(client.lines.count == written - 1, "every line accepted is delivered; the refused one is not")
            #expect(client.ends == [.endOfStream(discardedPartialLine: 0)])
        }
    }

    @Test func aPeerThatNeverReadsIsClosedWhenItsOutputStalls() throws {
        try withConnectedPair { loop, pair in
            pair.server.writeStallTimeout = .milliseconds(200)
            let server = LineRecorder()
            server.record(pair.server)
            pair.server.writeLine(patternBytes(8 << 20))
            #expect(pair.server.pendingWriteBytes > 0)
            try loop.run(until: "stall end", timeout: .seconds(10)) { !server.ends.isEmpty }
            #expect(server.ends == [.writeStalled])
            #expect(pair.server.isClosed)
        }
    }

    @Test func closeAfterFlushToAPeerThatNeverReadsEndsAtTheStallTimeout() throws {
        try withConnectedPair { loop, pair in
            pair.server.writeStallTimeout = .milliseconds(200)
            let server = LineRecorder()
            server.record(pair.server)
            pair.server.writeLine(patternBytes(8 << 20))
            pair.server.closeAfterFlush()
            try loop.run(until: "closed", timeout: .seconds(10)) { !server.ends.isEmpty }
            #expect(server.ends == [.writeStalled])
        }
    }

    @Test func aFailedWriteStillDeliversWhatThePeerSentBeforeItClosed() throws {
        try withConnectedPair { loop, pair in
            let server = LineRecorder()
            server.record(pair.server)
            pair.client.writeLine(Array("the last answer".utf8))
            pair.client.close()
            // The server has not read yet; its write fails (EPIPE) before it does.
            pair.server.writeLine(Array("a request to a peer that is gone".utf8))
            #expect(pair.server.isClosed, "no more writes after a failed one")
            try loop.run(until: "server end") { !server.ends.isEmpty }
            #expect(server.strings == ["the last answer"])
            guard case .error(let error)? = server.ends.first else {
                Issue.record("expected an error end, got \(server.ends)")
                return
            }
            #expect(error.name == "EPIPE")
        }
    }

    @Test func aWriteFailingInsideALineHandlerStillDeliversTheRestOfThatRead() throws {
        try withConnectedPair { loop, pair in
            let server = LineRecorder()
            server.record(pair.server) { line in
                if line == Array("ping".utf8) { pair.server.writeLine(Array("pong".utf8)) }
            }
            pair.client.writeLine(Array("ping\nthe answer".utf8))
            pair.client.close()
            try loop.run(until: "server end") { !server.ends.isEmpty }
            #expect(server.strings == ["ping", "the answer"])
            guard case .error(let error)? = server.ends.first else {
                Issue.record("expected an error end, got \(server.ends)")
                return
            }
            #expect(error.name == "EPIPE")
        }
    }

    @Test func aListenerAcceptsAtMostItsBudgetPerTurnAndTheRestOnLaterTurns() throws {
        let loop = try EventLoop()
        let socket = TestSocketPath()
        defer { socket.remove() }
        var accepted: [Connection] = []
        let listener = try Listener.listen(on: socket.address, loop: loop) { accepted.append($0) }
        listener.maxAcceptsPerTurn = 3
        var clients: [Connection] = []
        for _ in 0..<10 {
            Connection.connect(to: socket.address, loop: loop) { if case .success(let c) = $0 { clients.append(c) } }
        }
        var perTurn: [Int] = []
        try loop.run(until: "ten accepted") {
            perTurn.append(accepted.count)
            return accepted.count == 10
        }
        let increments = zip(perTurn.dropFirst(), perTurn).map { $0 - $1 }
        #expect(increments.allSatisfy { $0 <= 3 }, "accepted per turn: \(increments)")
        for connection in accepted + clients {
            connection.close()
        }
        listener.close()
        try loop.close()
    }

    @Test func nextTurnWorkRunsOnALaterTurnInOrder() throws {
        let loop = try EventLoop()
        var ran: [Int] = []
        loop.nextTurn {
            ran.append(1)
            loop.nextTurn { ran.append(3) }
        }
        loop.nextTurn { ran.append(2) }
        #expect(ran.isEmpty)
        loop.runOnce(wait: false)
        #expect(ran == [1, 2])
        loop.run()
        #expect(ran == [1, 2, 3])
        loop.nextTurn { Issue.record("work queued at close is dropped") }
        try loop.close()
    }
}

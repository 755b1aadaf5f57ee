import Glibc
import LifebusIO
import Testing

@Suite struct ConnectionTests {
    @Test func unixSocketCarriesLinesBothWaysWithKernelCredentialsAndMode0600() throws {
        try withConnectedPair { loop, pair in
            guard case .unix(let path) = pair.listener.boundAddress else {
                Issue.record("expected a Unix socket address")
                return
            }
            var status = stat()
            #expect(stat(path, &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFSOCK)
            #expect(status.st_mode & 0o777 == 0o600)

            let me = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
            #expect(pair.server.peerCredentials == me)
            #expect(pair.client.peerCredentials == me)
            #expect(pair.server.fileDescriptor != nil)

            let server = LineRecorder()
            server.record(pair.server) { line in pair.server.writeLine(Array("echo:".utf8) + line) }
            let client = LineRecorder()
            client.record(pair.client)
            pair.client.writeLine(Array("hello".utf8))
            pair.client.writeLine(Array("world".utf8))
            pair.client.writeLine([])
            try loop.run(until: "echoes") { client.lines.count == 3 }
            #expect(server.strings == ["hello", "world", ""])
            #expect(client.strings == ["echo:hello", "echo:world", "echo:"])

            pair.client.close()
            try loop.run(until: "server end") { !server.ends.isEmpty }
            #expect(server.ends == [.endOfStream(discardedPartialLine: 0)])
            #expect(client.ends == [.closedLocally])
        }
    }

    @Test func tcpLoopbackListenerOnPortZeroReportsItsRealPort() throws {
        let loop = try EventLoop()
        let pair = try ConnectedPair(loop: loop, address: .tcp(host: "127.0.0.1", port: 0))
        guard case .tcp(let host, let port) = pair.listener.boundAddress else {
            Issue.record("expected a TCP address")
            return
        }
        #expect(host == "127.0.0.1")
        #expect(port > 0)
        #expect(pair.server.peerCredentials == nil)

        let server = LineRecorder()
        server.record(pair.server) { _ in pair.server.writeLine(Array("pong".utf8)) }
        let client = LineRecorder()
        client.record(pair.client)
        pair.client.writeLine(Array("ping".utf8))
        try loop.run(until: "pong") { client.lines.count == 1 }
        #expect(server.strings == ["ping"])
        #expect(client.strings == ["pong"])
        pair.close()
        try loop.run(until: "both ends") { server.ends.count == 1 && client.ends.count == 1 }
        try loop.close()
    }

    @Test func aOneMebibyteLineArrivesWholeAcrossManyReads() throws {
        try withConnectedPair { loop, pair in
            let line = patternBytes(1 << 20)
            pair.server.maxLineLength = 1 << 20
            let server = LineRecorder()
            server.record(pair.server)
            pair.client.writeLine(line)
            try loop.run(until: "1 MiB line") { !server.lines.isEmpty }
            #expect(server.lines == [line])
            #expect(server.ends.isEmpty)
        }
    }

    @Test func writesToAPeerThatIsNotReadingAreQueuedThenDelivered() throws {
        try withConnectedPair { loop, pair in
            let big = patternBytes(8 << 20, seed: 7)
            pair.server.writeLine(big)
            pair.server.writeLine(Array("after".utf8))
            #expect(pair.server.pendingWriteBytes > 0)

            let client = LineRecorder()
            pair.client.maxLineLength = 9 << 20
            client.record(pair.client)
            try loop.run(until: "8 MiB line") { client.lines.count == 2 }
            #expect(client.lines.first == big)
            #expect(client.strings.last == "after")
            #expect(pair.server.pendingWriteBytes == 0)
        }
    }

    /// A spliced line (head, body gathered from elsewhere, tail) arrives as the one line it spells, whether the
    /// kernel takes it whole, stops inside the body (8 MiB to a peer not reading) or takes none of it (queued behind).
    @Test func aSplicedLineArrivesAsTheLineItSpellsWhereverTheKernelStops() throws {
        try withConnectedPair { loop, pair in
            let line = Array("{\"head\":[]}".utf8)
            let cases: [(body: [UInt8], offset: Int)] = [
                (patternBytes(8 << 20, seed: 3), 9), ([], 9), (patternBytes(100, seed: 5), 0),
                (patternBytes(70, seed: 6), line.count),
            ]
            for (body, offset) in cases {
                line.withUnsafeBytes { pair.server.writeLine($0, splicing: body, at: offset) }
            }
            #expect(pair.server.pendingWriteBytes > 0)

            let client = LineRecorder()
            pair.client.maxLineLength = 9 << 20
            client.record(pair.client)
            try loop.run(until: "four spliced lines") { client.lines.count == cases.count }
            #expect(client.lines == cases.map { Array(line[..<$0.offset]) + $0.body + Array(line[$0.offset...]) })
        }
    }

    /// The same lines encoded into the loop's line buffer (which then holds the line's "\n" itself): each arrives as
    /// the one line it spells, whether the kernel takes it whole, stops inside the body or takes none of it.
    @Test func aSplicedLineEncodedIntoTheLineBufferArrivesAsTheLineItSpells() throws {
        try withConnectedPair { loop, pair in
            let line = Array("{\"head\":[]}".utf8)
            let cases: [(body: [UInt8], offset: Int)] = [
                (patternBytes(8 << 20, seed: 3), 9), ([], 9), (patternBytes(100, seed: 5), 0),
                (patternBytes(70, seed: 6), line.count), ([], line.count),
            ]
            for (body, offset) in cases {
                pair.server.writeLine(encoding: { encoded in
                    encoded.append(contentsOf: line)
                    return offset
                }, splicing: body)
            }
            #expect(pair.server.pendingWriteBytes > 0)

            let client = LineRecorder()
            pair.client.maxLineLength = 9 << 20
            client.record(pair.client)
            try loop.run(until: "five spliced lines") { client.lines.count == cases.count }
            #expect(client.lines == cases.map { Array(line[..<$0.offset]) + $0.body + Array(line[$0.offset...]) })
        }
    }

    /// A large body the kernel does not take whole is sent from the caller's array, held by the queued write: the
    /// caller changing its array afterwards (a copy is made then) or dropping it changes nothing that arrives.
    @Test func aHeldBodyArrivesAsItWasWhenWrittenWhateverTheCallerDoesNext() throws {
        try withConnectedPair { loop, pair in
            let line = Array("<>".utf8)
            let original = [patternBytes(4 << 20, seed: 11), patternBytes(4 << 20, seed: 12)]
            var bodies = original
            for body in bodies {
                line.withUnsafeBytes { pair.server.writeLine($0, splicing: body, at: 1) }
            }
            #expect(pair.server.pendingWriteBytes > 4 << 20, "the kernel did not take all of the first body")
            for index in bodies[0].indices where index % 4096 == 0 {
                bodies[0][index] = 0x2A
            }
            bodies.removeLast()

            let client = LineRecorder()
            pair.client.maxLineLength = 5 << 20
            client.record(pair.client)
            try loop.run(until: "two held lines") { client.lines.count == 2 }
            #expect(client.lines == original.map { Array("<".utf8) + $0 + Array(">".utf8) })
            #expect(pair.server.pendingWriteBytes == 0)
        }
    }

    /// Lines encoded into the loop's shared line buffer: one written while another is being encoded (here, from the
    /// encoder itself, on the same connection and large enough to grow the buffer) gets a buffer of its own, and both
    /// arrive whole, in the order their writes were made; a spliced one too.
    @Test func aLineEncodedWhileAnotherIsBeingEncodedGetsItsOwnBuffer() throws {
        try withConnectedPair { loop, pair in
            let inner = patternBytes(100_000, seed: 7)
            pair.server.writeLine(encoding: { outer in
                outer.append(contentsOf: Array("outer:".utf8))
                pair.server.writeLine(encoding: { $0.append(contentsOf: inner) })
                outer.append(contentsOf: Array("end".utf8))
            })
            let body = patternBytes(5_000, seed: 8)
            pair.server.writeLine(encoding: { line in
                line.append(contentsOf: Array("[]".utf8))
                return 1
            }, splicing: body)
            pair.server.writeLine(encoding: { $0.append(contentsOf: Array("last".utf8)) })

            let client = LineRecorder()
            pair.client.maxLineLength = 1 << 20
            client.record(pair.client)
            try loop.run(until: "four lines") { client.lines.count == 4 }
            #expect(client.lines == [inner, Array("outer:end".utf8), Array("[".utf8) + body + Array("]".utf8),
                                     Array("last".utf8)])
        }
    }

    @Test func connectingToAMissingPathFailsWithNotFound() throws {
        let loop = try EventLoop()
        let socket = TestSocketPath()
        var result: Result<Connection, UVError>?
        Connection.connect(to: socket.address, loop: loop) { result = $0 }
        #expect(result == nil, "the completion never runs inside connect")
        try loop.run(until: "connect failure") { result != nil }
        #expect(throws: UVError.self) { try result?.get() }
        if case .failure(let error) = result {
            #expect(error.isNotFound)
        }
        try loop.close()
    }

    @Test func connectingToASocketNobodyListensOnIsRefused() throws {
        let loop = try EventLoop()
        let socket = TestSocketPath()
        defer { socket.remove() }
        let descriptor = try bindWithoutListening(socket.path)
        defer { Glibc.close(descriptor) }
        var result: Result<Connection, UVError>?
        Connection.connect(to: socket.address, loop: loop) { result = $0 }
        try loop.run(until: "connect failure") { result != nil }
        if case .failure(let error) = result {
            #expect(error.isConnectionRefused)
        } else {
            Issue.record("expected ECONNREFUSED, got \(String(describing: result))")
        }
        try loop.close()
    }

    @Test func closingAListenerRemovesTheSocketFileItBound() throws {
        let loop = try EventLoop()
        let socket = TestSocketPath()
        defer { socket.remove() }
        let listener = try Listener.listen(on: socket.address, loop: loop) { _ in }
        #expect(access(socket.path, F_OK) == 0)
        listener.close()
        loop.run()
        #expect(access(socket.path, F_OK) != 0)
        try loop.close()
    }

    @Test func listeningOnAPathInUseFailsWithAddressInUseAndLeavesTheFile() throws {
        let loop = try EventLoop()
        let socket = TestSocketPath()
        defer { socket.remove() }
        let first = try Listener.listen(on: socket.address, loop: loop) { $0.close() }
        #expect {
            _ = try Listener.listen(on: socket.address, loop: loop) { _ in }
        } throws: { error in
            (error as? UVError)?.isAddressInUse == true
        }
        var connected: Result<Connection, UVError>?
        Connection.connect(to: socket.address, loop: loop) { connected = $0 }
        try loop.run(until: "connect to the first listener") { connected != nil }
        let client = try #require(connected).get()
        client.close()
        first.close()
        try loop.close()
    }

    @Test func addressesThatCannotBeUsedAreRefusedUpFront() throws {
        let loop = try EventLoop()
        let longPath = "/tmp/" + String(repeating: "x", count: 200)
        #expect { _ = try Listener.listen(on: .unix(longPath), loop: loop) { _ in } } throws: { error in
            (error as? UVError)?.name == "ENAMETOOLONG"
        }
        #expect { _ = try Listener.listen(on: .tcp(host: "0.0.0.0", port: 0), loop: loop) { _ in } } throws: { error in
            (error as? UVError)?.name == "EADDRNOTAVAIL"
        }
        var result: Result<Connection, UVError>?
        Connection.connect(to: .unix(longPath), loop: loop) { result = $0 }
        try loop.run(until: "connect failure") { result != nil }
        if case .failure(let error) = result {
            #expect(error.name == "ENAMETOOLONG")
        }
        try loop.close()
    }
}

/// A Unix socket bound to `path` that nobody listens on: connecting to it is refused.
private func bindWithoutListening(_ path: String) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
        path.utf8CString.withUnsafeBytes { bytes.copyMemory(from: $0) }
    }
    let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    try #require(status == 0)
    return descriptor
}

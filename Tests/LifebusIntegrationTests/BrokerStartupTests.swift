import Glibc
import Testing

/// `lifebusd` start and stop: the socket file, stale files, a live broker already there, signals.
@Suite struct BrokerStartupTests {
    @Test func printsListeningAndCreatesSocketWithMode0600() throws {
        let broker = try BrokerFixture()
        var status = stat()
        #expect(stat(broker.socketPath, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(broker.stop() == 0)
    }

    /// Once it runs its loop, the broker maps its code as a random read (`rr`, MADV_RANDOM: no read-ahead) and has
    /// let go of what only start-up ran. A segment's first and last page are left alone
    /// when the segment does not fill them (the page may be another segment's too): they stay one-page mappings.
    @Test func mapsItsCodePageByPageOnceListening() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        #expect(client.hello()?.contains("\"result\"") == true, "answered from its loop: the pages were released")
        let smaps = String(decoding: try readBytes("/proc/\(broker.process.pid)/smaps"), as: UTF8.self)
        // Each mapping: its header line ("start-end perms offset dev inode path"), then "Key: value" lines.
        let mappings = smaps.split(separator: "\n").reduce(into: [[Substring]]()) { mappings, line in
            if line.first?.isHexDigit == true, line.contains("-") { mappings.append([line]) } else {
                mappings[mappings.count - 1].append(line)
            }
        }
        let code = mappings.filter { $0[0].contains(" r-xp ") && $0[0].hasSuffix("/lifebusd") }
        let pageByPage = code.filter { mapping in
            mapping.first { $0.hasPrefix("VmFlags:") }?.split(separator: " ").contains("rr") == true
        }
        #expect(!pageByPage.isEmpty, "the executable's code is mapped page by page")
        let onePage = "\(sysconf(Int32(_SC_PAGESIZE)) / 1024)"
        for mapping in code where !pageByPage.contains(mapping) {
            let size = mapping.first { $0.hasPrefix("Size:") }?.split(separator: " ").dropFirst().first
            #expect(size.map(String.init) == onePage, "only a segment's edge page is left as it was: \(mapping[0])")
        }
        #expect(broker.stop() == 0)
    }

    @Test func sigtermClosesClientsRemovesSocketAndExitsZero() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        #expect(client.hello()?.contains("\"result\"") == true)
        broker.process.signal(SIGTERM)
        #expect(client.waitForClose(), "the broker closes its clients")
        client.close()
        #expect(broker.process.wait() == 0)
        #expect(access(broker.socketPath, F_OK) != 0)
    }

    @Test func replacesAStaleSocketLeftByADeadBroker() throws {
        let path = BrokerFixture.uniqueSocketPath("stale")
        try makeStaleSocket(at: path)
        #expect(access(path, F_OK) == 0)
        let broker = try BrokerFixture(socketPath: path)
        let client = try broker.connect()
        #expect(client.hello()?.contains("\"result\"") == true)
        #expect(broker.stop() == 0)
    }

    @Test func refusesToStartWhereALiveBrokerListens() throws {
        let first = try BrokerFixture()
        let second = try ChildProcess("lifebusd", ["--socket", first.socketPath])
        let message = second.stderr.readAll()
        #expect(second.wait() == 1)
        #expect(message.contains("another broker holds \(first.socketPath)"))
        let client = try first.connect()
        #expect(client.hello()?.contains("\"result\"") == true, "the first broker keeps working")
        #expect(first.stop() == 0)
    }

    @Test func refusesToReplaceAFileThatIsNotASocket() throws {
        let path = BrokerFixture.uniqueSocketPath("plain")
        let file = fopen(path, "w")
        fclose(file)
        defer {
            unlink(path)
            unlink(path + ".lock")
        }
        let broker = try ChildProcess("lifebusd", ["--socket", path])
        let message = broker.stderr.readAll()
        #expect(broker.wait() == 1)
        #expect(message.contains("is not a socket"))
        #expect(access(path, F_OK) == 0, "the file is left alone")
    }

    @Test func takesTheSocketPathFromTheEnvironment() throws {
        let path = BrokerFixture.uniqueSocketPath("env")
        defer { unlink(path + ".lock") }
        let broker = try ChildProcess("lifebusd", [], environment: ["LIFEBUS_SOCKET": path])
        #expect(broker.stdout.readLine() == "listening on \(path)")
        let ping = try runCLI(["ping"], environment: ["LIFEBUS_SOCKET": path])
        #expect(ping.status == 0)
        broker.signal(SIGTERM)
        #expect(broker.wait() == 0)
    }

    @Test func aSecondSignalExitsAtOnce() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.hello()
        // SIGSTOP the broker so both signals are pending together, then let it run: the second one ends it.
        broker.process.signal(SIGSTOP)
        broker.process.signal(SIGTERM)
        broker.process.signal(SIGINT)
        broker.process.signal(SIGCONT)
        let status = broker.process.wait()
        #expect(status == 128 + SIGINT || status == 128 + SIGTERM, "a clean stop would have exited 0")
    }
}

/// `lifebusd`'s own command line: help, and usage errors with exit status 2.
@Suite struct DaemonCommandLineTests {
    @Test(arguments: [
        ["--profile", "ios9"], ["--time-scale", "0"], ["--time-scale", "-1"], ["--hello-timeout", "soon"],
        ["--tcp-port", "70000"], ["--log-level", "loud"], ["--time-scale", "1e300"], ["--time-scale", "1e-300"],
        ["--time-scale", "nan"], ["--time-scale", "inf"], ["--time-scale", "1001"], ["--hello-timeout", "0s"],
        ["--hello-timeout", "9223372036s"], ["--hello-timeout", "2h"], ["--tcp-port", "-1"],
        ["--tcp-port", "9223372036854775808"], ["--socket"], ["--frobnicate", "1"], ["stray"],
        ["--clock", "virtual"], ["--advance-settle", "-1s"], ["--advance-settle", "2h"],
        ["--call-presentation", "popup"], ["--power", "mains"], ["--network", "wifi"],
        ["--protected-data-notifications", "sometimes"], ["--tasks-after-force-quit", "refresh"],
        ["--tasks-after-force-quit", ""], ["--tasks-after-force-quit", "processing,"],
        ["--background-launch-scene", "always"],
    ])
    func usageErrorsExitTwoAndSayWhy(arguments: [String]) throws {
        let daemon = try ChildProcess("lifebusd", arguments)
        let message = daemon.stderr.readAll()
        #expect(daemon.wait() == 2)
        #expect(message.contains("lifebusd: error:"))
        #expect(message.contains("USAGE: lifebusd"))
        #expect(message.contains("See 'lifebusd --help' for more information."))
        #expect(!message.contains("Exit status:"), "the synopsis, not the whole help")
    }

    @Test func helpPrintsUsageAndExitsZero() throws {
        let daemon = try ChildProcess("lifebusd", ["--help"])
        let text = daemon.stdout.readAll()
        #expect(daemon.wait() == 0)
        #expect(text.contains("--time-scale"))
    }

    @Test func optionsTakeEitherForm() throws {
        let path = BrokerFixture.uniqueSocketPath("eq")
        let broker = try BrokerFixture(arguments: ["--profile=ios3", "--time-scale=0.5"], socketPath: path)
        let client = try broker.connect()
        #expect(parsed(client.hello())?["result"]?["profile"]?.stringValue == "ios3")
        #expect(broker.stop() == 0)
    }
}

/// Leaves a socket file nobody listens on, as a killed broker does.
func makeStaleSocket(at path: String) throws {
    close(try boundSocket(at: path, listening: false))
}

/// A Unix socket bound at `path`, listening when asked (tests only); the caller closes it.
func boundSocket(at path: String, listening: Bool) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: path.utf8)
        raw[path.utf8.count] = 0
    }
    let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard status == 0, !listening || listen(fd, 4) == 0 else {
        let code = errno
        close(fd)
        throw SpawnError(errno: code)
    }
    return fd
}

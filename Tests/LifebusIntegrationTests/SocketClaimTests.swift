import Glibc
import Testing

/// Who may take a socket path: one broker at a time (a lock beside the socket), and a broker removes only the
/// socket it bound.
@Suite struct SocketClaimTests {
    @Test func twoBrokersStartedAtOnceExactlyOneWinsTenTimesOver() throws {
        for round in 1...10 {
            let path = BrokerFixture.uniqueSocketPath("race")
            defer {
                unlink(path)
                unlink(path + ".lock")
            }
            let arguments = ["--socket", path, "--journal", "/dev/null"]
            let first = try ChildProcess("lifebusd", arguments)
            let second = try ChildProcess("lifebusd", arguments)
            var winners: [ChildProcess] = []
            for contender in [first, second] {
                if contender.stdout.readLine(timeout: .seconds(10)) == "listening on \(path)" {
                    winners.append(contender)
                } else {
                    let message = contender.stderr.readAll()
                    #expect(contender.wait() == 1, "round \(round): the loser exits 1")
                    #expect(message.contains("another broker holds \(path)"), "round \(round): \(message)")
                }
            }
            #expect(winners.count == 1, "round \(round): exactly one broker wins")
            guard let winner = winners.first else { continue }
            let client = try RawClient(path: path)
            #expect(client.hello()?.contains("\"result\"") == true, "round \(round): the winner stays reachable")
            winner.signal(SIGTERM)
            #expect(winner.wait() == 0)
        }
    }

    @Test func aBrokerLeavesASocketItDidNotBindAtItsPath() throws {
        let broker = try BrokerFixture()
        // Someone replaces the broker's socket file with a socket of their own.
        #expect(unlink(broker.socketPath) == 0)
        let foreign = try boundSocket(at: broker.socketPath, listening: true)
        defer { close(foreign) }
        #expect(broker.stop() == 0)
        var status = stat()
        #expect(lstat(broker.socketPath, &status) == 0, "the foreign socket is still there")
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
    }
}

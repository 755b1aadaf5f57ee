import Glibc
import LifebusIO
import LifebusSupervision
import LifebusTestFiles
import Testing

/// A process that connected on its own is identified from its connection and signalled exactly, through
/// `SO_PEERPIDFD` or, without it, its pid checked against its start time.
@Suite(.serialized) struct PeerProcessTests {
    @Test(arguments: [true, false])
    func aConnectedProcessIsKilledThroughItsHoldAndNothingAfterItsExit(peerPidfd: Bool) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var accepted: Connection?
            let listener = try Listener.listen(on: .unix(folder.file("bus.sock")), loop: loop) { accepted = $0 }
            defer { listener.close() }
            var end: SpawnedProcess.Termination?
            let process = try startConnectingClient(folder.file("bus.sock"), loop: loop) { end = $0 }
            try loop.run(until: "the connection") { accepted != nil }
            let connection = try #require(accepted)
            defer { connection.close() }
            let credentials = try #require(connection.peerCredentials)
            #expect(credentials.pid == process.pid)
            let socket = try #require(connection.fileDescriptor)
            let peer = try #require(PeerProcess.identify(socket: socket, pid: credentials.pid, usePeerPidfd: peerPidfd))
            if peerPidfd {
                #expect(peer.hold == .pidfd)
            } else {
                let stat = try #require(ProcStat.read(process.pid))
                #expect(peer.hold == .pidAndStartTime(stat.startTime))
            }
            #expect(peer.isAlive)
            #expect(peer.send(SIGKILL) == nil)
            try loop.run(until: "the exit") { end != nil }
            #expect(end == .signalled(SIGKILL))
            #expect(!peer.isAlive)
            #expect(peer.send(SIGKILL) == ESRCH)  // reaped: nothing is sent, whoever has the pid now
        }
    }

    @Test func aGonePidIsNotIdentified() throws {
        try withLoop { loop in
            var end: SpawnedProcess.Termination?
            let process = try SpawnedProcess.spawn(SpawnedProcess.Options(program: "/bin/true"), loop: loop) {
                end = $0
            }
            try loop.run(until: "the exit") { end != nil }
            #expect(PeerProcess.identify(socket: -1, pid: process.pid) == nil)
        }
    }
}

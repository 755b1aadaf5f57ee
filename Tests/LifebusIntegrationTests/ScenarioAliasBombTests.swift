import Glibc
import Testing

/// A 569-byte "billion laughs" (nine levels of aliases of aliases, 9⁹ strings once expanded) is refused at its first
/// anchor, with its place, before any tree is built: quickly and in bounded memory (it used to take gigabytes and
/// abort).
@Suite struct ScenarioAliasBombTests {
    @Test func anAliasBombIsRefusedAtItsFirstAnchorQuicklyInBoundedMemory() throws {
        let file = "\(ScenarioRunTests.root)/Tests/Fixtures/scenarios/alias-bomb.yaml"
        let start = WaitNoticeTests.now()
        let run = try Self.measured("\(ChildProcess.productsFolder)/lifebus", ["run", file])
        let seconds = WaitNoticeTests.now() - start
        #expect(run.err.contains("\(file):9:14: anchors (&NAME) are not supported in scenario files"), "\(run.err)")
        #expect(run.status == 4)
        #expect(seconds < 1, "refused in \(seconds) s")
        #expect(run.maxResidentKiB > 1024 && run.maxResidentKiB < 50 * 1024, "max RSS of lifebus run (lifebus-run): \(run.maxResidentKiB) KiB")
    }

    /// Runs `path` to its end, its stderr captured and stdout discarded, and reaps it with `wait4`: its exit status
    /// and the largest resident size it (and what it exec'd into) reached.
    static func measured(_ path: String, _ arguments: [String]) throws -> (status: Int32, err: String,
                                                                           maxResidentKiB: Int) {
        var pipeEnds: [Int32] = [-1, -1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        // Under the lock every test spawn takes, with close-on-exec ends: no other child inherits the write end.
        let spawned = ChildProcess.spawnMutex.withLock { _ -> Int32 in
            guard pipe(&pipeEnds) == 0 else { return errno }
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
            return posix_spawn(&pid, path, &actions, nil, argv, environ)
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else { throw FixtureError("posix_spawn \(path): \(spawned)") }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count > 0 { bytes += buffer[..<count] } else if count == 0 || errno != EINTR { break }
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, String(decoding: bytes, as: UTF8.self), usage.ru_maxrss)
    }
}

import Glibc
import LifebusIO
@testable import LifebusContainment
import Testing

/// Subreaper containment reads little and misses nothing: a run's kill walks only its leader's tree (not the
/// 500 other processes under the same parent), a token is found in an environment of any size, and the memory
/// controller is turned on for runs where the hierarchy lists it.
@Suite(.serialized) struct ContainmentScanTests {
    /// Spawns `arguments` with `environment`, stdin, stdout and stderr on /dev/null.
    static func spawn(_ arguments: [String], environment: [String] = []) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
        }
        return try CleanSpawn.spawn(arguments, environment: environment, actions: &actions)
    }

    static func end(_ pids: [Int32]) {
        for pid in pids { kill(pid, SIGKILL) }
        var status: Int32 = 0
        for pid in pids { _ = waitpid(pid, &status, 0) }
    }

    static func scan(_ text: String, name: String, chunk: Int) -> String? {
        var scan = EnvironmentScan(name: name)
        let bytes = Array(text.utf8).map { $0 == UInt8(ascii: "|") ? 0 : $0 }
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            let found = bytes[start..<min(start + chunk, bytes.count)].withUnsafeBytes { scan.feed($0) }
            if let found { return String(decoding: found, as: UTF8.self) }
        }
        return scan.finish().map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [1, 3, 4096]) func theScanFindsTheVariableWhateverTheChunks(chunk: Int) {
        #expect(Self.scan("A=1|XLIFEBUS=no|LIFEBUS=a.1,b.2|LIFEBUS=c|", name: "LIFEBUS", chunk: chunk) == "a.1,b.2")
        #expect(Self.scan("A=LIFEBUS=no|LIFEBUSX=no|", name: "LIFEBUS", chunk: chunk) == nil)
        #expect(Self.scan("LIFEBUS=last", name: "LIFEBUS", chunk: chunk) == "last")
    }

    /// 300 KiB of environment before the token (three 100 KiB variables: one string may hold at most 128 KiB).
    @Test func aTokenAfter300KiBOfEnvironmentIsFound() throws {
        let large = (0..<3).map { "LARGE\($0)=" + String(repeating: "x", count: 100 * 1024) }
        let pid = try Self.spawn(["/bin/sleep", "600"], environment: large + ["\(ProcessTable.variable)=big.1,big.1.2"])
        defer { Self.end([pid]) }
        // The spawn returns once the child's exec has let go of our memory, before the kernel has set up the new
        // image's environment (until then /proc/PID/environ reads empty): wait for it.
        #expect(eventually { ProcessTable.tokens(of: pid) == ["big.1", "big.1.2"] })
    }

    /// One run's kill beside 500 other processes under the same parent reads only its own tree: it ends the run's
    /// two processes and no other. Prints how long it took, and how long two whole-tree passes (the old kill's
    /// least) take.
    @Test func aRunsKillReadsOnlyItsOwnTree() throws {
        let others = try (0..<500).map { _ in try Self.spawn(["/bin/sleep", "600"]) }
        defer { Self.end(others) }
        let run = ContainedRun(token: "cost.1.1", folder: nil)
        let leader = try Self.spawn(
            ["/bin/sh", "-c", "sleep 600 & wait"], environment: ["\(ProcessTable.variable)=cost.1.1"])
        defer { Self.end([leader]) }
        #expect(eventually { ProcessTable.children(of: leader).count == 1 })
        let child = try #require(ProcessTable.children(of: leader).first)

        let clock = ContinuousClock()
        let whole = clock.measure { for _ in 0..<2 { _ = ProcessTable.read(below: getpid()) } }
        let own = clock.measure { #expect(run.kill(leader: leader, orphans: { [] }) == 2) }
        print("one run's kill among 500 processes: \(own); two passes over the whole tree: \(whole)")
        #expect(eventually { ProcessTable.startTime(of: child) == nil || isZombie(child) }, "the run's child ended")
        #expect(others.allSatisfy { kill($0, 0) == 0 && !isZombie($0) }, "no other process was touched")
    }

    @Test func theMemoryControllerIsTurnedOnWhereTheParentListsIt() throws {
        var template = Array("/tmp/lifebus-memory-controller-XXXXXX".utf8CString)
        let root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { _ = system("rm -rf '\(root)'") }
        let folder = root + "/lifebus-1"
        mkdir(folder, 0o755)
        func write(_ path: String, _ text: String) {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = Glibc.write(descriptor, text, text.utf8.count)
            close(descriptor)
        }
        func read(_ path: String) -> String {
            (try? String(decoding: readAll(path), as: UTF8.self)) ?? ""
        }
        write(root + "/cgroup.controllers", "cpuset cpu io pids\n")
        write(root + "/cgroup.subtree_control", "")
        write(folder + "/cgroup.subtree_control", "")
        #expect(MemoryController.enable(below: root, in: folder)?.contains("does not list memory") == true)
        #expect(read(folder + "/cgroup.subtree_control").isEmpty, "nothing written without the controller")

        write(root + "/cgroup.controllers", "cpuset cpu io memory pids\n")
        #expect(MemoryController.enable(below: root, in: folder) == nil)
        #expect(read(root + "/cgroup.subtree_control") == "+memory", "turned on in the parent first")
        #expect(read(folder + "/cgroup.subtree_control") == "+memory", "then for the runs")

        write(root + "/cgroup.subtree_control", "cpu memory\n")
        write(folder + "/cgroup.subtree_control", "")
        #expect(MemoryController.enable(below: root, in: folder) == nil)
        #expect(read(root + "/cgroup.subtree_control") == "cpu memory\n", "the parent's left as it was")
        #expect(read(folder + "/cgroup.subtree_control") == "+memory")

        chmod(folder + "/cgroup.subtree_control", 0o444)
        if geteuid() != 0 {
            #expect(MemoryController.enable(below: root, in: folder)?.contains("cgroup.subtree_control") == true)
        }
    }

    /// A `lifebus-PID` left by a dead process with the same pid is replaced when empty, refused when not.
    @Test func aStaleEmptyFolderIsReplacedAndABusyOneRefused() throws {
        var template = Array("/tmp/lifebus-stale-XXXXXX".utf8CString)
        let root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { _ = system("rm -rf '\(root)'") }
        let path = root + "/lifebus-1"
        mkdir(path, 0o755)
        mkdir(path + "/run-3", 0o755)
        #expect(throws: SystemError.self) { try CgroupFolder.create(path, replacingStale: false) }
        #expect(try CgroupFolder.create(path, replacingStale: true).path == path)
        #expect(access(path + "/run-3", F_OK) != 0, "the stale run folder went with it")
        close(open(path + "/cgroup.procs", O_WRONLY | O_CREAT, 0o644))  // a folder that is not empty
        #expect(throws: SystemError.self) { try CgroupFolder.create(path, replacingStale: true) }
    }
}

private func isZombie(_ pid: Int32) -> Bool {
    guard let bytes = try? readAll("/proc/\(pid)/stat"), let close = bytes.lastIndex(of: UInt8(ascii: ")")),
          close + 2 < bytes.count
    else { return false }
    return bytes[close + 2] == UInt8(ascii: "Z")
}

private func readAll(_ path: String) throws -> [UInt8] {
    try SystemFiles.read(path, limit: 1 << 20)
}

private func eventually(seconds: Int = 5, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

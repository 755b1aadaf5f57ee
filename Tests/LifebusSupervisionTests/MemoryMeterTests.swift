import Glibc
import LifebusIO
import LifebusSupervision
import LifebusTestFiles
import Testing

/// An app's memory is its footprint, shared pages counted once: a parent that maps and touches a 64 MiB shared
/// mapping, then forks 24 children that read all of it, reads ≈ its PSS sum (computed here on its own from every
/// member's `smaps_rollup`), not 25 × 64 MiB as the old `statm` RSS sum did; a meter reading a few processes a
/// round stays within its staleness bound; a cgroup's `memory.current` is taken as it is.
@Suite(.serialized) struct MemoryMeterTests {
    static let mib = 1 << 20
    static let children = 24

    /// Python: maps `argv[1]` MiB shared and anonymous, touches every page, forks `argv[2]` children that read
    /// every page, then writes `ready` to `argv[3]` once every child has, and waits.
    static let sharer = """
        import mmap, os, signal, sys, time
        size, children, ready = int(sys.argv[1]) << 20, int(sys.argv[2]), sys.argv[3]
        shared = mmap.mmap(-1, size, flags=mmap.MAP_SHARED)
        for offset in range(0, size, 4096):
            shared[offset] = 1
        for index in range(children):
            if os.fork() == 0:
                total = sum(shared[offset] for offset in range(0, size, 4096))
                open(f"{ready}.{index}", "w").write(str(total))
                signal.pause()
        while not all(os.path.exists(f"{ready}.{index}") for index in range(children)):
            time.sleep(0.01)
        open(ready + ".tmp", "w").write("ready")
        os.rename(ready + ".tmp", ready)
        signal.pause()
        """

    /// The PSS and RSS sums over the live members of `group`, read here without the meter.
    private func truth(ofGroup group: Int32) -> (pss: Int, rss: Int, processes: Int) {
        var pss = 0, rss = 0, processes = 0
        for member in ProcStat.members(ofGroup: group) {
            guard let rollup = readText("/proc/\(member.pid)/smaps_rollup"),
                  let statm = readText("/proc/\(member.pid)/statm") else { continue }
            let line = rollup.split(separator: "\n").first { $0.hasPrefix("Pss:") } ?? ""
            pss += (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) << 10
            rss += (Int(statm.split(separator: " ")[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
            processes += 1
        }
        return (pss, rss, processes)
    }

    private func launchSharer(folder: TemporaryFolder, loop: EventLoop, exits: @escaping (ProcessExit) -> Void)
        throws -> AppProcess
    {
        let script = folder.write("sharer.py", Self.sharer)
        let request = LaunchRequest(appID: "com.test.sharer", executable: "/usr/bin/python3",
                                    arguments: [script, "64", "\(Self.children)", folder.file("ready")],
                                    socketPath: "/tmp/x.sock", logPath: folder.file("sharer.log"))
        let app = try AppProcess.launch(request, loop: loop, onExit: exits)
        try loop.run(until: "the sharer and its children ready", timeout: .seconds(60)) {
            folder.read("ready") == "ready"
        }
        return app
    }

    @Test func sharedPagesCountOnceAcrossAGroupOfManyProcesses() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let app = try launchSharer(folder: folder, loop: loop) { exits.append($0) }
            let target = MemoryReading.Target(appID: "sharer", pid: app.pid, wholeGroup: true)
            let sample = try #require(MemoryReading.sample([target]).first)
            let truth = truth(ofGroup: app.pid)
            let ratio = Double(sample.residentBytes) / Double(truth.pss)
            #expect(sample.processes == Self.children + 1)
            #expect(truth.pss >= 64 * Self.mib, "the shared mapping counts once: \(truth.pss >> 20) MiB")
            #expect(abs(ratio - 1) <= 0.1, "meter \(sample.residentBytes >> 20) MiB, PSS \(truth.pss >> 20) MiB")
            #expect(truth.rss >= 10 * truth.pss, "RSS sums the mapping once per process: \(truth.rss >> 20) MiB")

            // A budget of 9 (3 to 9 visits a round): all 25 were read in the first round, and stay within 10 %.
            let meter = MemoryMeter(readBudget: 9)
            for _ in 0..<(2 * (Self.children + 1) / 3 + 2) {
                let round = try #require(meter.measure([target]).first)
                #expect(round.processes == Self.children + 1)
                #expect(abs(Double(round.residentBytes) / Double(truth.pss) - 1) <= 0.1)
            }

            app.kill(.shutdown)
            try loop.run(until: "the sharer's exit") { exits.count == 1 }
            // The children get SIGKILL when their leader is reaped; the meter drops them within its bound.
            try loop.run(until: "no member left", timeout: .seconds(10)) {
                meter.measure([target]).first?.processes == 0
            }
        }
    }

    /// Python: forks `argv[1]` sleeping children; on SIGUSR1 allocates and touches 32 MiB, forks one more child,
    /// then writes `grown` to `argv[2]`. Writes `ready` there once started.
    static let grower = """
        import os, signal, sys
        children, marker = int(sys.argv[1]), sys.argv[2]
        def mark(text):
            open(marker + ".tmp", "w").write(text)
            os.rename(marker + ".tmp", marker)
        def grow(number, frame):
            global block
            block = bytearray(32 << 20)
            block[::4096] = b"\\x01" * len(range(0, 32 << 20, 4096))
            if os.fork() == 0:
                signal.pause()
            mark("grown")
        for _ in range(children):
            if os.fork() == 0:
                signal.pause()
        signal.signal(signal.SIGUSR1, grow)
        mark("ready")
        while True:
            signal.pause()
        """

    @Test func aMeterReadingFewProcessesARoundSeesGrowthAndBirthsWithinItsBound() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let script = folder.write("grower.py", Self.grower)
            let request = LaunchRequest(appID: "com.test.grower", executable: "/usr/bin/python3",
                                        arguments: [script, "7", folder.file("marker")],
                                        socketPath: "/tmp/x.sock", logPath: folder.file("grower.log"))
            let app = try AppProcess.launch(request, loop: loop) { exits.append($0) }
            try loop.run(until: "the grower ready") { folder.read("marker") == "ready" }
            let target = MemoryReading.Target(appID: "grower", scope: .processGroup(app.pid))
            let meter = MemoryMeter(readBudget: 6)
            let before = try #require(meter.measure([target]).first)
            #expect(before.processes == 8)
            for _ in 0..<5 { _ = meter.measure([target]) }

            kill(app.pid, SIGUSR1)
            try loop.run(until: "the grower grown") { folder.read("marker") == "grown" }
            // 8 processes, a budget of 6 (2 visits reading PSS): every figure, and the new child, within
            // ⌈3 × 8 / 6⌉ + 1 rounds.
            let rounds = (0..<5).map { _ in meter.measure([target])[0] }
            #expect(rounds.last?.processes == 9)
            #expect(rounds.last.map { $0.residentBytes - before.residentBytes >= 30 * Self.mib } == true,
                    "\(rounds.map { $0.residentBytes >> 20 }) MiB after \(before.residentBytes >> 20) MiB")

            app.kill(.shutdown)
            try loop.run(until: "the grower's exit") { exits.count == 1 }
            try loop.run(until: "no member left", timeout: .seconds(10)) {
                meter.measure([target]).first?.processes == 0
            }
        }
    }

    @Test func aProcessScopeReadsThatProcessAlone() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let app = try launchSharer(folder: folder, loop: loop) { exits.append($0) }
            let whole = try #require(MemoryReading.sample([.init(appID: "g", scope: .processGroup(app.pid))]).first)
            let leader = try #require(MemoryReading.sample([.init(appID: "p", scope: .process(app.pid))]).first)
            #expect(leader.processes == 1)
            #expect(leader.residentBytes > 0 && leader.residentBytes < whole.residentBytes)
            app.kill(.shutdown)
            try loop.run(until: "the sharer's exit") { exits.count == 1 }
            #expect(MemoryReading.sample([.init(appID: "p", scope: .process(app.pid))]).first?.processes == 0)
        }
    }

    @Test func aCgroupWithMemoryCurrentIsTakenAsItIsElseItsProcessesAreSummed() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let me = getpid()
        folder.write("cgroup.procs", "\(me)\n\(getppid())\n")
        folder.write("memory.current", "123456789\n")
        let counted = MemoryReading.sample([.init(appID: "c", scope: .cgroup(path: folder.path))])
        #expect(counted == [.init(appID: "c", residentBytes: 123_456_789, processes: 2)])

        // A sleeping child, whose memory stays put (this process's own moves with the tests running beside it).
        var sleeper: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("60"), nil]
        defer { arguments.forEach { free($0) } }
        #expect(posix_spawn(&sleeper, "/bin/sleep", nil, nil, arguments, environ) == 0)
        defer {
            kill(sleeper, SIGKILL)
            var status: Int32 = 0
            waitpid(sleeper, &status, 0)
        }
        folder.write("cgroup.procs", "\(sleeper)\n")
        unlink(folder.file("memory.current"))
        let summed = MemoryReading.sample([.init(appID: "c", scope: .cgroup(path: folder.path))])
        let alone = MemoryReading.sample([.init(appID: "c", scope: .process(sleeper))])
        #expect(summed.map(\.processes) == [1])
        #expect(summed.first.map { abs($0.residentBytes - alone[0].residentBytes) < Self.mib } == true,
                "\(summed) against \(alone)")
    }
}

import Glibc
import LifebusIO
import LifebusSupervision
import LifebusTestFiles
import Testing

/// Resident memory is read from `/proc` for an app's whole process group: a group whose processes allocate and
/// touch N MiB reads ≈ N MiB more than the same group allocating nothing.
@Suite(.serialized) struct MemoryReadingTests {
    /// Python that allocates `argv[1]` MiB, touches every page, reports readiness in the file `argv[2]`, waits.
    static let allocator = """
        import signal, sys
        size = int(sys.argv[1]) << 20
        block = bytearray(size)
        block[::4096] = b"\\x01" * len(range(0, size, 4096))
        open(sys.argv[2] + ".tmp", "w").write("ready")
        __import__("os").rename(sys.argv[2] + ".tmp", sys.argv[2])
        signal.pause()
        """

    /// An app whose shell starts two allocators of `mebibytes` each and waits.
    private func launchGroup(
        _ name: String, mebibytes: Int, folder: TemporaryFolder, loop: EventLoop, exits: @escaping (ProcessExit) -> Void
    ) throws -> AppProcess {
        let script = folder.write("alloc.py", Self.allocator)
        let ready = folder.file(name)
        let shell = "python3 \(script) \(mebibytes) \(ready)-1 & python3 \(script) \(mebibytes) \(ready)-2 & wait"
        let request = LaunchRequest(appID: "com.test.\(name)", executable: "/bin/sh", arguments: ["-c", shell],
                                    socketPath: "/tmp/x.sock", logPath: folder.file("\(name).log"))
        return try AppProcess.launch(request, loop: loop, onExit: exits)
    }

    @Test func aGroupAllocating64MiBReadsAbout64MiBMoreThanAnIdleOne() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let idle = try launchGroup("idle", mebibytes: 0, folder: folder, loop: loop) { exits.append($0) }
            let busy = try launchGroup("busy", mebibytes: 32, folder: folder, loop: loop) { exits.append($0) }
            let targets = [idle, busy].map { MemoryReading.Target(appID: $0.appID, pid: $0.pid, wholeGroup: true) }
            var samples: [[MemoryReading.Sample]] = []
            let sampler = try MemorySampler(loop: loop, period: .milliseconds(20), targets: { targets }) {
                samples.append($0)
            }
            try loop.run(until: "all four allocators ready", timeout: .seconds(60)) {
                ["idle-1", "idle-2", "busy-1", "busy-2"].allSatisfy { folder.read($0) == "ready" }
            }
            let readyAt = samples.count
            try loop.run(until: "a sample after readiness") { samples.count > readyAt }
            sampler.close()
            let last = try #require(samples.last)
            #expect(last.map(\.appID) == ["com.test.idle", "com.test.busy"])
            #expect(last.map(\.processes) == [3, 3])  // the shell and its two allocators
            let difference = last[1].residentBytes - last[0].residentBytes
            #expect((60 << 20)...(72 << 20) ~= difference, "busy - idle = \(difference >> 20) MiB")
            #expect(MemoryReading.sample([MemoryReading.Target(appID: "one", pid: busy.pid, wholeGroup: false)])
                .first.map { $0.processes == 1 && $0.residentBytes < last[1].residentBytes } == true)

            idle.kill(.shutdown)
            busy.kill(.shutdown)
            try loop.run(until: "both exits") { exits.count == 2 }
            // The strays were sent SIGKILL when their leader was reaped; they are gone once the kernel delivers it.
            try loop.run(until: "no live process left in either group", timeout: .seconds(10)) {
                MemoryReading.sample(targets).map(\.processes) == [0, 0]
            }
        }
    }
}

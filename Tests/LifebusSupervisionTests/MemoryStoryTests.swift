import Glibc
import LifebusIO
import LifebusProtocol
import LifebusSupervision
import LifebusTestFiles
import Testing

/// The memory story of issue 7 with real programs: a real broker, the example `MemoryGrower` started twice by the
/// supervisor (a cache that frees itself when warned; a hog that ignores warnings), resident memory sampled from
/// `/proc`, the pressure policy deciding, and the supervisor's kill carried out. The broker does not drive
/// supervision yet, so the test plays the broker machine's part: it feeds the policy and carries out its plan.
@Suite(.serialized) struct MemoryStoryTests {
    static let cache = "com.example.CacheGrower"
    static let hog = "com.example.MemoryHog"
    static let mib = 1 << 20

    @Test func theCacheThatFreesItselfSurvivesAndTheSuspendedHogIsKilledFirst() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            let bus = try BrokerUnderSupervision(loop: loop, folder: folder)
            // The hog first: it is in the background (then suspended) once the cache app comes to the front.
            let hogArguments = ["--step-mib", "16", "--period-ms", "20", "--limit-mib", "128", "--ignore-warnings"]
            let hog = try bus.start("MemoryGrower", id: Self.hog, hogArguments)
            #expect(try bus.cli(["wait", Self.hog, "active", "--timeout", "20s"]).status == 0)
            let cache = try bus.start("MemoryGrower", id: Self.cache,
                                      ["--step-mib", "8", "--period-ms", "20", "--limit-mib", "64"])
            #expect(try bus.cli(["wait", Self.cache, "active", "--timeout", "20s"]).status == 0)
            #expect(try bus.cli(["wait", Self.hog, "suspended", "--timeout", "20s"]).status == 0)

            let targets = [cache, hog].map { MemoryReading.Target(appID: $0.appID, pid: $0.pid, wholeGroup: true) }
            func resident() -> [String: Int] {
                Dictionary(uniqueKeysWithValues: MemoryReading.sample(targets).map { ($0.appID, $0.residentBytes) })
            }
            try loop.run(until: "both caches grown", timeout: .seconds(30)) {
                let now = resident()
                return now[Self.cache, default: 0] >= 64 * Self.mib && now[Self.hog, default: 0] >= 128 * Self.mib
            }

            // A memory warning reaches the running app: it frees its cache; the suspended hog keeps everything.
            #expect(try bus.cli(["fire", "memory-warning"]).status == 0)
            try loop.run(until: "the cache freed", timeout: .seconds(30)) {
                (try? bus.marks(of: Self.cache).contains { $0["name"]?.stringValue == "cache-freed" }) == true
            }
            if !runsUnderAddressSanitizer {  // ASan's quarantine keeps what was freed resident
                try loop.run(until: "the cache's memory returned") {
                    resident()[Self.cache, default: .max] < 48 * Self.mib
                }
            }

            // Critical pressure on a device the two apps fill: the suspended hog goes, silently; the cache stays.
            let now = resident()
            let standings = [Self.cache: AppMemory.Standing.foreground, Self.hog: .suspended]
            let apps = [Self.cache, Self.hog].map {
                AppMemory(appID: $0, residentBytes: now[$0]!, standing: standings[$0]!)
            }
            let device = now.values.reduce(0, +)
            let plan = MemoryPressurePolicy(deviceMemory: device).assess(apps)
            #expect(plan.level == .critical)
            #expect(plan.kills.map(\.appID) == [Self.hog])
            #expect(plan.kills.first?.notice == PlannedKill.Notice.none)
            #expect(plan.kills.first.map { $0.residentBytes >= 128 * Self.mib && $0.totalBytes == device } == true)
            hog.kill(plan.kills[0].reason)
            try loop.run(until: "the hog's exit") { bus.exit(of: Self.hog) != nil }
            #expect(bus.exit(of: Self.hog)?.termination == .signalled(SIGKILL))
            #expect(bus.exit(of: Self.hog)?.killReason == .jetsam)
            #expect(try bus.cli(["wait", Self.hog, "notRunning", "--timeout", "20s"]).status == 0)
            #expect(try bus.state(of: Self.cache) == "active")
            #expect(cache.exit == nil)

            cache.kill(.shutdown)
            try loop.run(until: "the cache's exit") { bus.exit(of: Self.cache) != nil }
            try bus.stop()
        }
    }
}

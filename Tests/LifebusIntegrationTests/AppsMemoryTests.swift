import Glibc
import LifebusProtocol
import Testing

/// Memory pressure from the apps' real resident memory: the broker samples its spawned apps, `apps` shows the
/// figures and the level, and at critical pressure a suspended app is killed silently with the figures journaled.
@Suite struct AppsMemoryTests {
    @Test func criticalPressureFromResidentMemoryKillsTheSuspendedAppWithItsFigures() throws {
        // Any app is over 1 MiB: pressure is critical from the first sample. The watchdog only observes: on a
        // loaded machine an answer slower than its 5 s budget would otherwise end the app before the pressure does.
        let broker = try BrokerFixture(arguments: [
            "--device-memory", "1GiB", "--memory-warning-at", "512KiB", "--memory-critical-at", "1MiB",
            "--memory-sample", "20ms", "--watchdog", "observe",
        ])
        let (first, second) = ("com.example.Early", "com.example.Late")
        for id in [first, second] {
            #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        }
        #expect(try broker.cli(["fire", "launch", first]).status == 0)
        #expect(try broker.reached(first, "active"))
        #expect(try broker.cli(["fire", "launch", second]).status == 0)
        #expect(try broker.reached(second, "active"))

        // The first, suspended behind the second, is killed by the pressure the broker measured itself.
        #expect(try broker.reached(first, "notRunning"))
        let records = try AppsSupervisedTests.processRecords(broker, first)
        let killed = records.first { $0["event"]?.stringValue == "killed" }
        #expect(killed?["reason"]?.stringValue == "jetsam")
        let figures = killed?["detail"]?.stringValue ?? ""
        #expect(figures.contains("resident") && figures.contains("of 1073741824 bytes") && figures.contains("critical"),
                "\(figures)")
        let jetsam = try broker.transitions(of: first).last
        #expect(jetsam?["outcome"]?.stringValue == "jetsam")

        let apps = try #require(jsonLines(try broker.cli(["apps", "--json"]).out).first)
        #expect(apps["pressure"]?.stringValue == "critical")
        let late = apps["apps"]?.arrayValue?.first { $0["id"]?.stringValue == second }
        #expect((late?["residentBytes"]?.int64Value ?? 0) > 1 << 20, "its resident memory is shown")
        let callbacks = try broker.transitions(of: second).compactMap { $0["callback"]?.stringValue }
        let warned = callbacks.contains("didReceiveMemoryWarning")
        #expect(warned, "the app in front was warned")
        let status = try #require(try broker.status())
        #expect(status["pressure"]?.stringValue == "critical")
        #expect((status["apps"]?.arrayValue?.first { $0["id"]?.stringValue == second }?["residentBytes"]?.int64Value
            ?? 0) > 0)
        try SupervisionCheck.run(broker)
    }

    @Test func anAppOverItsManifestsMemoryLimitIsKilledEvenInFront() throws {
        let broker = try BrokerFixture(arguments: ["--device-memory", "64GiB", "--memory-sample", "20ms"])
        let id = "com.example.Greedy"
        let manifest = AppsSupervisedTests.manifest(id, in: broker.ownFolder, memoryLimit: "1MiB")
        #expect(try broker.cli(["install", manifest]).status == 0)
        _ = try broker.cli(["fire", "launch", id])  // answered once launched, or refused if killed while launching
        #expect(try broker.reached(id, "notRunning"), "killed in front for its limit")
        let records = try AppsSupervisedTests.processRecords(broker, id)
        let killed = records.first { $0["event"]?.stringValue == "killed" }
        #expect(killed?["reason"]?.stringValue == "jetsam")
        let figures = killed?["detail"]?.stringValue ?? ""
        #expect(figures.contains("limit 1048576 bytes"), "\(figures)")
        #expect(try broker.transitions(of: id).last?["outcome"]?.stringValue == "jetsam")
        try SupervisionCheck.run(broker)
    }

    @Test func atCriticalPressureABackgroundAppIsTerminatedWithWillTerminate() throws {
        // The watchdog only observes, as above: the app must end by the pressure, not by a slow answer.
        let broker = try BrokerFixture(arguments: [
            "--device-memory", "1GiB", "--memory-critical-at", "1MiB", "--memory-sample", "20ms",
            "--watchdog", "observe",
        ])
        let (player, front) = ("com.example.Player", "com.example.Front")
        let manifest = AppsSupervisedTests.manifest(player, in: broker.ownFolder, backgroundModes: ["audio"])
        #expect(try broker.cli(["install", manifest]).status == 0)
        #expect(try broker.cli(["install", AppsSupervisedTests.manifest(front, in: broker.ownFolder)]).status == 0)
        #expect(try broker.cli(["fire", "launch", player]).status == 0)
        _ = try broker.cli(["fire", "launch", front])  // the player goes to the background (audio), not suspended
        #expect(try broker.reached(player, "notRunning"), "terminated for the pressure")
        let callbacks = try broker.transitions(of: player).compactMap { $0["callback"]?.stringValue }
        #expect(callbacks.last == "willTerminate", "\(callbacks)")
        try SupervisionCheck.run(broker)
    }
}

/// `--freeze-suspended`: a suspended spawned app's process is stopped, and runs again before it resumes.
@Suite struct AppsFreezeTests {
    /// The state letter of `/proc/PID/stat` (`T` when stopped).
    static func processState(_ pid: Int64) -> String? {
        guard let line = try? readLines("/proc/\(pid)/stat").first, let close = line.lastIndex(of: ")") else {
            return nil
        }
        return line[line.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
    }

    @Test func aSuspendedAppIsStoppedAndContinuedBeforeItResumes() throws {
        let broker = try BrokerFixture(arguments: ["--freeze-suspended"])
        let (first, second) = ("com.example.Frozen", "com.example.Front")
        for id in [first, second] {
            #expect(try broker.cli(["install", AppsSupervisedTests.manifest(id, in: broker.ownFolder)]).status == 0)
        }
        #expect(try broker.cli(["fire", "launch", first]).status == 0)
        let pid = try #require(try AppsSupervisedTests.processRecords(broker, first).first?["pid"]?.int64Value)
        #expect(try broker.cli(["fire", "launch", second]).status == 0)
        #expect(try broker.reached(first, "suspended"))
        #expect(AppsSupervisedTests.eventually { Leftovers.isFrozen(Int32(pid)) }, "stopped while suspended")
        let apps = try #require(jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?.arrayValue)
        #expect(apps.first { $0["id"]?.stringValue == first }?["frozen"]?.boolValue == true)
        let status = try #require(try broker.status())
        #expect(status["apps"]?.arrayValue?.first { $0["id"]?.stringValue == first }?["frozen"]?.boolValue == true)
        #expect(try broker.cli(["status"]).out.contains("suspended (frozen)"))

        #expect(try broker.cli(["fire", "activate", first]).status == 0, "it answers: it was continued")
        #expect(try broker.reached(first, "active"))
        #expect(!Leftovers.isFrozen(Int32(pid)))
        try SupervisionCheck.run(broker)
    }
}

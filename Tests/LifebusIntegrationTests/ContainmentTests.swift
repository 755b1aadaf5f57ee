import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import Testing

/// Issue 25 item 5: nothing an app starts outlives it. Each app is a shell that exports a marker, leaves a setsid
/// grandchild (double fork + setsid) and an in-group child behind, and becomes `lifebus subscribe`; after each way
/// an app or its broker ends, no process carrying the marker is alive 1 s later. In both containment modes.
@Suite struct ContainmentTests {
    static let modes = ["cgroup", "subreaper"]

    /// A broker in `mode` with the escaping app installed, launched and active; its marker's processes are up.
    static func start(
        _ mode: String, broker extraBroker: [String] = [], subscribe extra: [String] = []
    ) throws -> (broker: BrokerFixture, id: String, marker: Substring) {
        let broker = try BrokerFixture(arguments: ["--containment", mode] + extraBroker)
        try expectMode(mode, of: broker)
        let marker = BrokerFixture.uniqueSocketPath("contain").split(separator: "/").last!.dropLast(5)
        let id = "com.example.Escaper"
        let subscribe = (["exec", ChildProcess.productsFolder + "/lifebus", "subscribe", "--id", id] + extra)
            .joined(separator: " ")
        let script = "export CONTAIN_MARK=\(marker); sh -c 'setsid sh -c \"sleep 600\" &'; sleep 600 & \(subscribe)"
        let manifest = AppsSupervisedTests.manifest(
            id, in: broker.ownFolder, executable: "/bin/sh", arguments: ["-c", script])
        #expect(try broker.cli(["install", manifest]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        // subscribe itself, the in-group sleep, the setsid shell and its sleep.
        #expect(AppsSupervisedTests.eventually { Leftovers.alive(marker).count >= 4 }, "\(Leftovers.alive(marker))")
        return (broker, id, marker)
    }

    /// Checks that `broker` logged `mode` as its containment; cancels the test (saying why) when `mode` is cgroup
    /// and this machine cannot give it (the broker fell back to subreaper mode).
    static func expectMode(_ mode: String, of broker: BrokerFixture) throws {
        let logged = containmentLine(broker)
        if mode == "cgroup" && logged.contains("lifebus.containment=subreaper") {
            try Test.cancel("cgroup mode cannot be had on this machine: \(logged)")
        }
        #expect(logged.contains("lifebus.containment=\(mode)"), "the broker logs the mode asked: \(logged)")
    }

    /// Whether no process carrying `marker` is alive within 1 s.
    static func noneLeft(_ marker: some StringProtocol) -> Bool {
        let gone = AppsSupervisedTests.eventually(seconds: 1) { Leftovers.alive(marker).isEmpty }
        Leftovers.killAll(marker)  // whatever the verdict, nothing is left to the next test
        return gone
    }

    @Test(arguments: modes) func terminateEndsTheWholeTree(mode: String) throws {
        let (broker, id, marker) = try Self.start(mode)
        #expect(try broker.cli(["fire", "terminate", id]).status == 0)
        #expect(try AppsSupervisedTests.eventually {
            try AppsSupervisedTests.processRecords(broker, id).contains { $0["event"]?.stringValue == "exited" }
        })
        #expect(Self.noneLeft(marker), "left after terminate: \(Leftovers.alive(marker))")
        try SupervisionCheck.run(broker)
    }

    /// A tree that keeps forking (a loop starting shells that each leave an orphan behind) while its app is killed
    /// leaves nothing: each pass stops what it finds before killing it, until a pass finds none alive.
    @Test(arguments: modes) func aForkingTreeLeavesNoSurvivor(mode: String) throws {
        let broker = try BrokerFixture(arguments: ["--containment", mode])
        try Self.expectMode(mode, of: broker)
        let marker = BrokerFixture.uniqueSocketPath("fork").split(separator: "/").last!.dropLast(5)
        let id = "com.example.Forker"
        let subscribe = ["exec", ChildProcess.productsFolder + "/lifebus", "subscribe", "--id", id]
            .joined(separator: " ")
        // In a session of its own, out of the app's group: only the tree walk reaches it.
        let loop = #"end=$(($(date +%s) + 3)); while [ $(date +%s) -lt $end ]; do sh -c "sleep 2 & sleep 2 &" & done"#
        let script = "export CONTAIN_MARK=\(marker); setsid sh -c '\(loop)' & \(subscribe)"
        let manifest = AppsSupervisedTests.manifest(
            id, in: broker.ownFolder, executable: "/bin/sh", arguments: ["-c", script])
        #expect(try broker.cli(["install", manifest]).status == 0)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        // Forking for a while: many short-lived orphans are up.
        #expect(AppsSupervisedTests.eventually { Leftovers.alive(marker).count >= 20 }, "\(Leftovers.alive(marker))")
        let pid = try #require(try AppsSupervisedTests.processRecords(broker, id).first?["pid"]?.int64Value)
        kill(Int32(pid), SIGKILL)
        #expect(try broker.reached(id, "notRunning"))
        #expect(Self.noneLeft(marker), "left after the forking app's kill: \(Leftovers.alive(marker))")
        try SupervisionCheck.run(broker)
    }

    @Test(arguments: modes) func aWatchdogKillEndsTheWholeTree(mode: String) throws {
        let (broker, id, marker) = try Self.start(
            mode, broker: ["--budget", "willTerminate=100ms"], subscribe: ["--delay", "willTerminate=7s"])
        #expect(try broker.cli(["fire", "terminate", id]).status == 0)
        #expect(try AppsSupervisedTests.eventually {
            try AppsSupervisedTests.processRecords(broker, id).contains { $0["reason"]?.stringValue == "watchdog" }
        })
        #expect(Self.noneLeft(marker), "left after the watchdog: \(Leftovers.alive(marker))")
        try SupervisionCheck.run(broker)
    }

    @Test(arguments: modes) func aJetsamEndsTheWholeTreeAndTheRelaunchLeavesNothingOfTheFirstRun(mode: String)
        throws
    {
        let (broker, id, marker) = try Self.start(mode, broker: ["--freeze-suspended"])
        let firstRun = Leftovers.alive(marker)
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(id, "suspended"))
        #expect(try broker.cli(["fire", "memory-warning", "--level", "critical"]).status == 0)
        #expect(try broker.reached(id, "notRunning"))
        #expect(AppsSupervisedTests.eventually(seconds: 1) { Leftovers.alive(marker).isEmpty },
                "left after jetsam (frozen): \(Leftovers.alive(marker))")
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        #expect(Set(Leftovers.alive(marker)).isDisjoint(with: firstRun), "the first run's processes are gone")
        #expect(try broker.cli(["fire", "terminate", id]).status == 0)
        #expect(Self.noneLeft(marker), "left after the relaunched run ended: \(Leftovers.alive(marker))")
        try SupervisionCheck.run(broker)
    }

    @Test(arguments: modes) func theBrokersSIGTERMEndsEveryTreeAndRemovesItsCgroup(mode: String) throws {
        let (broker, _, marker) = try Self.start(mode)
        let folder = try Self.cgroupFolder(of: broker.process.pid)
        if mode == "subreaper" { #expect(folder == nil, "no cgroup folder in subreaper mode: \(folder ?? "")") }
        #expect(broker.stop() == 0)
        #expect(Self.noneLeft(marker), "left after the broker's SIGTERM: \(Leftovers.alive(marker))")
        if let folder {
            #expect(AppsSupervisedTests.eventually(seconds: 5) { access(folder, F_OK) != 0 }, "\(folder) removed")
        }
        try SupervisionCheck.run(broker)
    }

    /// A clean stop reaps the guard before lifebusd exits: nothing of the broker is left at the instant it is gone.
    @Test(arguments: modes) func aCleanStopEndsItsGuardBeforeTheBrokerExits(mode: String) throws {
        let (broker, _, marker) = try Self.start(mode)
        let guardPid = try #require(SupervisionCheck.children(of: broker.process.pid).first { pid in
            let command = (try? readBytes("/proc/\(pid)/cmdline")) ?? []
            return String(decoding: command, as: UTF8.self).contains("--lifebus-containment-guard")
        }, "the broker's guard")
        let folder = try Self.cgroupFolder(of: broker.process.pid)
        #expect(broker.stop() == 0)
        #expect(kill(guardPid, 0) == -1 && errno == ESRCH, "the guard \(guardPid) is gone (reaped) when lifebusd is")
        if let folder { #expect(access(folder, F_OK) != 0, "\(folder) removed before lifebusd exited") }
        #expect(Self.noneLeft(marker), "left after the broker's SIGTERM: \(Leftovers.alive(marker))")
    }

    @Test(arguments: modes) func theBrokersSIGKILLLeavesNoProcessOfAFrozenAppAndNoCgroup(mode: String) throws {
        let (broker, id, marker) = try Self.start(mode, broker: ["--freeze-suspended"])
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(id, "suspended"))
        let folder = try Self.cgroupFolder(of: broker.process.pid)
        broker.process.signal(SIGKILL)
        broker.process.wait()
        #expect(Self.noneLeft(marker), "left after the broker's SIGKILL: \(Leftovers.alive(marker))")
        if let folder {
            #expect(AppsSupervisedTests.eventually(seconds: 5) { access(folder, F_OK) != 0 }, "\(folder) removed")
        }
    }

    @Test(arguments: modes) func aKill9OfTheAppsSubscribeEndsItsWholeTree(mode: String) throws {
        let (broker, id, marker) = try Self.start(mode)
        let pid = try #require(try AppsSupervisedTests.processRecords(broker, id).first?["pid"]?.int64Value)
        kill(Int32(pid), SIGKILL)
        #expect(try broker.reached(id, "notRunning"))
        #expect(Self.noneLeft(marker), "left after kill -9 of subscribe: \(Leftovers.alive(marker))")
        try SupervisionCheck.run(broker)
    }

    @Test func aKill9OfAHandStartedSubscribeEndsItsProgramsWholeTree() throws {
        let broker = try BrokerFixture()
        let marker = "lifebus-contain-\(getpid())-hand"
        let program = "sh -c 'setsid sh -c \"sleep 600\" &'; sleep 600 & exec sleep 600"
        let subscribe = try ChildProcess(
            "lifebus", ["subscribe", "--socket", broker.socketPath, "--id", "com.example.Hand", "--", "sh", "-c",
                        program], environment: ["CONTAIN_MARK": marker])
        #expect(try broker.reached("com.example.Hand", "active"))
        #expect(AppsSupervisedTests.eventually { Leftovers.alive(marker).count >= 5 }, "\(Leftovers.alive(marker))")
        subscribe.signal(SIGKILL)
        subscribe.wait()
        #expect(Self.noneLeft(marker), "left after kill -9 of subscribe: \(Leftovers.alive(marker))")
        try SupervisionCheck.run(broker)
    }

    @Test func theWatchdogsKillOfAHandStartedSubscribeEndsItsProgramsWholeTree() throws {
        let broker = try BrokerFixture(arguments: ["--budget", "willTerminate=100ms"])
        let marker = "lifebus-contain-\(getpid())-watchdog-hand"
        let program = "sh -c 'setsid sh -c \"sleep 600\" &'; sleep 600 & exec sleep 600"
        let subscribe = try ChildProcess(
            "lifebus", ["subscribe", "--socket", broker.socketPath, "--id", "com.example.SlowHand",
                        "--delay", "willTerminate=7s", "--", "sh", "-c", program],
            environment: ["CONTAIN_MARK": marker])
        #expect(try broker.reached("com.example.SlowHand", "active"))
        #expect(AppsSupervisedTests.eventually { Leftovers.alive(marker).count >= 5 }, "\(Leftovers.alive(marker))")
        #expect(try broker.cli(["fire", "terminate", "com.example.SlowHand"]).status == 0)
        #expect(subscribe.waitForExit() == 128 + SIGKILL, "the watchdog killed subscribe")
        #expect(Self.noneLeft(marker), "left after the watchdog killed subscribe: \(Leftovers.alive(marker))")
        try SupervisionCheck.run(broker)
    }

    @Test func subscribeReapsItsProgramOnSIGTERM() throws {
        let broker = try BrokerFixture()
        let pidFile = BrokerFixture.uniqueSocketPath("program") + ".pid"
        defer { unlink(pidFile) }
        let program = ["--", "sh", "-c", "echo $$ > \(pidFile); exec sleep 600"]
        let subscribe = try broker.subscribe("com.example.Reaped", program)
        var pid: Int32 = 0
        #expect(AppsSupervisedTests.eventually {
            pid = Int32(String(decoding: (try? readBytes(pidFile)) ?? [], as: UTF8.self)
                .split(separator: "\n").first ?? "") ?? 0
            return pid > 0
        })
        subscribe.signal(SIGTERM)
        #expect(subscribe.wait() == 128 + SIGTERM)
        // Reaped by subscribe before it exited: not even a zombie handed to PID 1.
        let state = SupervisionCheck.processState(pid)
        #expect(state == nil, "program \(pid) left in state \(state.map { String($0) } ?? "-")")
        try SupervisionCheck.run(broker)
    }

    @Test func theModeIsLoggedAtStartAndAnUnknownModeIsAUsageError() throws {
        let broker = try BrokerFixture(arguments: ["--containment", "subreaper"])
        let line = Self.containmentLine(broker)
        #expect(line.contains("lifebus.containment=subreaper"), "\(line)")
        let auto = try BrokerFixture()
        let chosen = Self.containmentLine(auto)
        let expected = try Self.cgroupFolder(of: auto.process.pid) == nil ? "subreaper" : "cgroup"
        #expect(chosen.contains("lifebus.containment=\(expected)"), "\(chosen)")
        let refused = try ChildProcess("lifebusd", ["--containment", "jail"])
        #expect(refused.waitForExit() == 2)
        #expect(refused.stderr.readAll(timeout: .seconds(5)).contains("auto, cgroup or subreaper"))
    }

    @Test func aBrokerThatMayNotMakeCgroupsContainsItsAppsAsASubreaper() throws {
        guard getuid() == 0 else { return }  // the test drops to nobody; an unprivileged run is that case already
        let nobody = ["/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
        var template = Array("/tmp/lifebus-nobody-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { FolderEntries.removeTree(folder) }
        let marker = "lifebus-contain-\(getpid())-nobody"
        let id = "com.example.Unprivileged"
        let script = "export CONTAIN_MARK=\(marker); sh -c 'setsid sh -c \"sleep 600\" &'; sleep 600 & "
            + "exec \(ChildProcess.productsFolder)/lifebus subscribe --id \(id)"
        let manifest = folder + "/app.json"
        let arguments = JSONValue.array([.string("-c"), .string(script)]).jsonText
        let text = #"{"id": "\#(id)", "executable": "/bin/sh", "arguments": \#(arguments)}"#
        let file = try #require(fopen(manifest, "w"))
        fputs(text, file)
        fclose(file)
        chown(folder, 65534, 65534)
        chmod(folder, 0o755)
        let broker = try BrokerFixture(arguments: ["--journal", folder + "/journal.jsonl"], wrapper: nobody)
        #expect(Self.containmentLine(broker).contains("lifebus.containment=subreaper (no cgroup:"))
        func cli(_ arguments: [String]) throws -> Int32 {
            let child = try ChildProcess(
                nobody[0], Array(nobody.dropFirst()) + ["\(ChildProcess.productsFolder)/lifebus"] + arguments
                    + ["--socket", broker.socketPath])
            return child.waitForExit()
        }
        #expect(try cli(["install", manifest]) == 0)
        #expect(try cli(["fire", "launch", id]) == 0)
        #expect(try cli(["wait", id, "active", "--timeout", "10s"]) == 0)
        #expect(AppsSupervisedTests.eventually { Leftovers.alive(marker).count >= 4 }, "\(Leftovers.alive(marker))")
        #expect(try cli(["fire", "terminate", id]) == 0)
        #expect(Self.noneLeft(marker), "left after terminate: \(Leftovers.alive(marker))")
        #expect(broker.stop() == 0)
    }

    /// The broker's start-up log line that names its containment mode (empty when none came within 5 s).
    static func containmentLine(_ broker: BrokerFixture) -> String {
        for _ in 0..<20 {
            guard let line = broker.process.stderr.readLine(timeout: .seconds(5)) else { break }
            if line.contains("lifebus.containment=") { return line }
        }
        return ""
    }

    /// The broker's `lifebus-PID` cgroup folder when it made one (cgroup mode on a machine that allows it).
    static func cgroupFolder(of broker: Int32) throws -> String? {
        let mounts = String(decoding: try readBytes("/proc/self/mountinfo"), as: UTF8.self)
        guard let line = mounts.split(separator: "\n").first(where: { $0.contains(" - cgroup2 ") }) else { return nil }
        let mount = line.split(separator: " ")[4]
        let own = String(decoding: try readBytes("/proc/\(broker)/cgroup"), as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("0::/") }.map { String($0.dropFirst(3)) } ?? "/"
        let folder = "\(mount)\(own == "/" ? "" : own)/lifebus-\(broker)"
        return access(folder, F_OK) == 0 ? folder : nil
    }
}

/// The processes of a test's apps, found by a marker in their environment (`CONTAIN_MARK=MARKER`, which every
/// descendant inherits), whatever their parent, group or session.
enum Leftovers {
    /// The live (not zombie) processes whose environment holds `CONTAIN_MARK=marker`.
    static func alive(_ marker: some StringProtocol) -> [Int32] {
        let needle = Array("CONTAIN_MARK=\(marker)".utf8)
        return fileNames(in: "/proc", endingWith: "").compactMap(Int32.init).filter { pid in
            guard pid != getpid(), SupervisionCheck.processState(pid).map({ $0 != "Z" }) ?? false,
                  let environment = try? readBytes("/proc/\(pid)/environ")
            else { return false }
            return environment.split(separator: 0).contains { Array($0) == needle }
        }
    }

    /// Whether `pid` is stopped (`T`, subreaper mode's SIGSTOP) or in a frozen cgroup (`frozen 1` in the
    /// `cgroup.events` of its cgroup v2 folder: cgroup mode's `cgroup.freeze`).
    static func isFrozen(_ pid: Int32) -> Bool {
        if SupervisionCheck.processState(pid) == "T" { return true }
        guard let own = (try? readLines("/proc/\(pid)/cgroup"))?.first(where: { $0.hasPrefix("0::/") }),
              let mounts = try? readLines("/proc/self/mountinfo"),
              let line = mounts.first(where: { $0.contains(" - cgroup2 ") })
        else { return false }
        let folder = "\(line.split(separator: " ")[4])\(own.dropFirst(3))"
        return ((try? readLines(folder + "/cgroup.events")) ?? []).contains("frozen 1")
    }

    /// SIGKILLs every live process carrying `marker` (cleanup after a failed check).
    static func killAll(_ marker: some StringProtocol) {
        for pid in alive(marker) { kill(pid, SIGKILL) }
    }
}

import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import Testing

/// The broker starting its installed apps itself: `lifebus install`, `fire launch` spawning the process, process
/// records in the journal, a spawn that fails answered `lifebus.LaunchFailed`, kills through the supervisor, and
/// no spawned app outliving the broker.
@Suite struct AppsSupervisedTests {
    /// A manifest in a fresh folder inside `parent` (the test's own: usually the broker fixture's, removed with it)
    /// that runs `lifebus subscribe` as app `id` (the socket comes from `LIFEBUS_SOCKET`, which the broker sets), or
    /// `executable` with `arguments`.
    static func manifest(
        _ id: String, in parent: String, executable: String = ChildProcess.productsFolder + "/lifebus",
        extra: [String] = [], arguments: [String]? = nil, memoryLimit: String? = nil, backgroundModes: [String] = [],
        exitsOnSuspend: Bool = false
    ) -> String {
        var template = Array("\(parent)/app-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let path = folder + "/app.json"
        let list = arguments ?? ["subscribe", "--id", id] + extra
        let arguments = JSONValue.array(list.map(JSONValue.string)).jsonText
        let modes = JSONValue.array(backgroundModes.map(JSONValue.string)).jsonText
        let limit = (memoryLimit.map { #", "memoryLimit": "\#($0)""# } ?? "") + #", "backgroundModes": \#(modes)"#
            + (exitsOnSuspend ? #", "exitsOnSuspend": true"# : "")
        let text = """
            {"id": "\(id)", "executable": "\(executable)", "arguments": \(arguments)\(limit)}
            """
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
        return path
    }

    static func processRecords(_ broker: BrokerFixture, _ app: String) throws -> [JSONValue] {
        try broker.history(app).filter { $0["type"]?.stringValue == "process" }
    }

    /// Polls `condition` every 20 ms for up to `seconds`.
    static func eventually(seconds: Int = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<seconds * 50 {
            if try condition() { return true }
            usleep(20_000)
        }
        return false
    }

    @Test func anInstalledAppIsSpawnedByFireLaunchAndKilledThroughItsProcessGroup() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Spawned"
        let install = try broker.cli(["install", Self.manifest(id, in: broker.ownFolder)])
        #expect(install.status == 0, "\(install.err)")
        let listed = jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?[0]
        #expect(listed?["id"]?.stringValue == id)
        #expect(listed?["state"]?.stringValue == "notRunning")

        let launch = try broker.cli(["fire", "launch", id])
        #expect(launch.status == 0, "\(launch.err)")
        #expect(try broker.reached(id, "active"))
        let started = try Self.processRecords(broker, id).first
        #expect(started?["event"]?.stringValue == "started")
        let pid = Int32(started?["pid"]?.int64Value ?? 0)
        #expect(pid > 0)
        let app = jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?[0]
        #expect(app?["pid"]?.int64Value == Int64(pid))
        #expect(app?["spawned"]?.boolValue == true)
        #expect(app?["state"]?.stringValue == "active")

        // Swiped away: the broker kills it through the supervisor and records the kill and the reaped exit.
        #expect(try broker.cli(["fire", "terminate", id, "--by-user"]).status == 0)
        func events() throws -> [String] { try Self.processRecords(broker, id).map { $0["event"]?.stringValue ?? "" } }
        #expect(try Self.eventually { try events().contains("exited") })
        let records = try Self.processRecords(broker, id)
        #expect(try events() == ["started", "connected", "launching", "killed", "exited"])
        #expect(records[2]["launch"]?["reason"]?.stringValue == "user", "a first launch")
        #expect(records.last?["signal"]?.int64Value == Int64(SIGKILL))
        #expect(records.last?["reason"]?.stringValue == "user")
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the app was reaped: no zombie left")

        // Launched again: a new process.
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let pids = try Self.processRecords(broker, id).filter { $0["event"]?.stringValue == "started" }
            .compactMap { $0["pid"]?.int64Value }
        #expect(pids.count == 2 && pids[0] != pids[1])
        let relaunch = try Self.processRecords(broker, id).last { $0["event"]?.stringValue == "launching" }?["launch"]
        #expect(relaunch?["reason"]?.stringValue == "afterTerminate")
        #expect(relaunch?["previousPid"]?.int64Value == pids[0])

        let logs = try broker.cli(["logs", id])
        #expect(logs.status == 0 && logs.out.contains("didFinishLaunching"), "lifebus logs prints its stdout: \(logs)")

        #expect(try broker.cli(["uninstall", id]).status == 0)
        #expect(jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?.arrayValue?.isEmpty == true)
        try SupervisionCheck.run(broker)
    }

    @Test func aSpawnThatFailsAnswersLaunchFailedNamingThePathAndErrno() throws {
        let broker = try BrokerFixture()
        let id = "com.example.Vanished"
        let executable = "/tmp/lifebus-vanishing-\(getpid())"
        let file = fopen(executable, "w")!
        fputs("#!/bin/sh\nexit 0\n", file)
        fclose(file)
        chmod(executable, 0o755)
        let manifest = Self.manifest(id, in: broker.ownFolder, executable: executable)
        #expect(try broker.cli(["install", manifest]).status == 0)
        unlink(executable)

        let launch = try broker.cli(["fire", "launch", id, "--json"])
        #expect(launch.status == 4)
        #expect(launch.err.contains("lifebus.LaunchFailed"), "\(launch.err)")
        #expect(launch.err.contains(executable), "\(launch.err)")
        #expect(launch.err.contains("errno 2"), "\(launch.err)")
        let records = try Self.processRecords(broker, id)
        #expect(records.map { $0["event"]?.stringValue ?? "" } == ["launchFailed"])
        #expect(try broker.cli(["status"]).status == 0, "the broker goes on")
        try SupervisionCheck.run(broker)
    }

    @Test func aBadManifestIsRefusedNamingTheFileAndTheMember() throws {
        let broker = try BrokerFixture()
        let path = Self.manifest("com.example.Bad", in: broker.ownFolder, executable: "/nonexistent/program")
        let install = try broker.cli(["install", path])
        #expect(install.status == 4)
        #expect(install.err.contains(path) && install.err.contains("executable"), "\(install.err)")
        try SupervisionCheck.run(broker)
    }

    @Test func theAppsFolderIsInstalledAtStartAndNoSpawnedAppOutlivesTheBroker() throws {
        let parent = makeTemporaryFolder("lifebus-apps")
        defer { FolderEntries.removeTree(parent) }
        let path = Self.manifest("com.example.Folder", in: parent)
        let folder = String(path[..<path.lastIndex(of: "/")!])
        let broker = try BrokerFixture(arguments: ["--apps", folder])
        #expect(try broker.cli(["fire", "launch", "com.example.Folder"]).status == 0)
        #expect(try broker.reached("com.example.Folder", "active"))
        let pid = Int32(try Self.processRecords(broker, "com.example.Folder").first?["pid"]?.int64Value ?? 0)
        #expect(pid > 0 && kill(pid, 0) == 0)
        #expect(broker.stop() == 0)
        #expect(Self.eventually { kill(pid, 0) == -1 }, "the spawned app died with the broker")
        try SupervisionCheck.run(broker)
    }

    @Test func atStopASpawnedAppGetsWillTerminateAndOneThatDoesNotAnswerIsKilledAfterTheGrace() throws {
        let id = "com.example.Stubborn"
        let broker = try BrokerFixture()
        let manifest = Self.manifest(id, in: broker.ownFolder, extra: ["--delay", "willTerminate=60s"])
        #expect(try broker.cli(["install", manifest]).status == 0)
        let logPath = broker.logPath(id)
        #expect(try broker.cli(["fire", "launch", id]).status == 0)
        #expect(try broker.reached(id, "active"))
        let pid = Int32(try Self.processRecords(broker, id).first?["pid"]?.int64Value ?? 0)
        #expect(pid > 0)
        #expect(broker.stop() == 0)
        #expect(Self.eventually { kill(pid, 0) == -1 }, "killed after the shutdown grace")
        let log = try readLines(logPath).joined(separator: "\n")
        #expect(log.contains("willTerminate"), "the app was told: \(log)")
        #expect(log.contains("didFinishLaunching"), "the app's stdout is in its log: \(log)")
        try SupervisionCheck.run(broker)
    }
}

import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import Testing

/// Issue 7 item 8 end to end through the CLI: the `MemoryGrower` example installed twice from a `--apps` folder,
/// as the well-behaved grower and as the hog (`--ignore-warnings`), launched by `lifebus fire launch`. The pressure
/// comes from their real resident memory, sampled by the broker; the grower frees its cache when warned and
/// survives, the hog grows past its manifest's `memoryLimit` and is killed, with its figures in the journal.
///
/// The figures keep it deterministic under load: the hog is killed once a sample sees it over 64 MiB, and it grows
/// 16 MiB a step, so alone it never reaches the 128 MiB warning; the grower grows to 192 MiB if never warned, so it
/// always crosses the warning while it runs (on its own or with the hog), whatever the order of events; critical
/// (960 MiB) is never reached, so nothing else is killed.
@Suite struct AppsMemoryStoryTests {
    static let (grower, hog) = ("com.example.CacheGrower", "com.example.MemoryHog")

    /// A `--apps` folder holding the grower's and the hog's manifests, both running the `MemoryGrower` example; the
    /// test removes it.
    static func appsFolder() -> String {
        var template = Array("/tmp/lifebus-story-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let executable = ChildProcess.productsFolder + "/MemoryGrower"
        let manifests = [
            ("grower.json", grower, #"["--step-mib", "8", "--period-ms", "100", "--limit-mib", "192"]"#, "400MiB"),
            ("hog.json", hog,
             #"["--step-mib", "16", "--period-ms", "100", "--limit-mib", "256", "--ignore-warnings"]"#, "64MiB"),
        ]
        for (name, id, arguments, limit) in manifests {
            let file = fopen(folder + "/" + name, "w")!
            fputs(#"{"id": "\#(id)", "executable": "\#(executable)", "arguments": \#(arguments), "#
                + #""memoryLimit": "\#(limit)"}"#, file)
            fclose(file)
        }
        return folder
    }

    static func marks(_ broker: BrokerFixture, _ app: String, _ name: String) throws -> [JSONValue] {
        try broker.marks(of: app).filter { $0["name"]?.stringValue == name }
    }

    @Test func theGrowerFreesItsCacheAndSurvivesWhileTheHogIsKilledWithItsFigures() throws {
        let apps = Self.appsFolder()
        defer { FolderEntries.removeTree(apps) }
        let broker = try BrokerFixture(arguments: [
            "--apps", apps, "--device-memory", "1GiB", "--memory-warning-at", "128MiB",
            "--memory-critical-at", "960MiB", "--memory-sample", "50ms",
        ])
        let installed = jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?.arrayValue ?? []
        #expect(Set(installed.compactMap { $0["id"]?.stringValue }) == [Self.grower, Self.hog])

        // The hog may already be over its limit before its launch is answered: then the launch is refused.
        _ = try broker.cli(["fire", "launch", Self.hog])
        let launch = try broker.cli(["fire", "launch", Self.grower])
        #expect(launch.status == 0, "\(launch.err)")

        // The hog ignores the warnings and keeps growing: the broker kills it for its limit, with the figures.
        #expect(try broker.reached(Self.hog, "notRunning", timeout: "30s"))
        #expect(try AppsSupervisedTests.eventually(seconds: 30) {
            try AppsSupervisedTests.processRecords(broker, Self.hog).contains { $0["event"]?.stringValue == "exited" }
        }, "the hog's exit was reaped")
        let hogRecords = try AppsSupervisedTests.processRecords(broker, Self.hog)
        let killed = try #require(hogRecords.first { $0["event"]?.stringValue == "killed" })
        #expect(killed["reason"]?.stringValue == "jetsam")
        let figures = killed["detail"]?.stringValue ?? ""
        let resident = figures.split(separator: " ").dropFirst().first.flatMap { Int64($0) } ?? 0
        #expect(figures.hasPrefix("resident ") && resident > 64 << 20, "its real resident bytes: \(figures)")
        #expect(figures.contains("limit \(64 << 20) bytes") && figures.contains("device total ")
                && figures.contains("of \(1 << 30) bytes") && figures.contains(", level "), "\(figures)")
        #expect(try broker.transitions(of: Self.hog).last?["outcome"]?.stringValue == "jetsam")
        #expect(try !Self.marks(broker, Self.hog, "cache-grown").isEmpty, "the hog grew before it was killed")

        // The grower is warned when the resident memory crosses 128 MiB, frees its cache and goes on.
        #expect(try AppsSupervisedTests.eventually(seconds: 30) {
            try !Self.marks(broker, Self.grower, "cache-freed").isEmpty
        }, "the grower was warned and freed its cache")
        let freed = try Self.marks(broker, Self.grower, "cache-freed").first?["data"]?["freedBytes"]?.int64Value
        #expect((freed ?? 0) > 0)
        let callbacks = try broker.transitions(of: Self.grower).compactMap { $0["callback"]?.stringValue }
        #expect(callbacks.contains("didReceiveMemoryWarning"), "\(callbacks)")
        // Its resident memory really falls back below the warning, and it is still in front, never killed.
        #expect(try AppsSupervisedTests.eventually(seconds: 30) {
            let apps = jsonLines(try broker.cli(["apps", "--json"]).out).first?["apps"]?.arrayValue ?? []
            let bytes = apps.first { $0["id"]?.stringValue == Self.grower }?["residentBytes"]?.int64Value ?? .max
            return bytes < 128 << 20
        }, "the freed cache left its resident memory")
        #expect(try broker.reached(Self.grower, "active"))
        let growerEvents = try AppsSupervisedTests.processRecords(broker, Self.grower).map { $0["event"]?.stringValue }
        #expect(!growerEvents.contains("killed") && !growerEvents.contains("exited"), "\(growerEvents)")
        try SupervisionCheck.run(broker)
    }
}

import LifebusIO
import LifebusJSON
import Testing

/// `lifebus run --shard K/N` and `lifebus merge` end to end: three shards run in parallel on private brokers (each
/// with its own state folder, as separate CI runners would be) and their merged JUnit (times aside), coverage table,
/// text and exit status equal one unsharded run's — with a failing scenario among them, so the verdict is carried
/// too; a fuzz campaign split by seed range merges to the unsplit campaign's sessions and verdict; and the CI
/// examples of `docs/ci` pass arguments `--shard` accepts, covering every shard.
@Suite struct ShardMergeTests {
    static let root = TranscriptReplayTests.repositoryRoot
    static let files = ["\(root)/scenarios/call-declined.yaml", "\(root)/scenarios/home-relaunch.yaml",
                        "\(root)/scenarios/sms-reply.yaml", "\(root)/scenarios/memory-warning.yaml",
                        "\(root)/Tests/Fixtures/scenarios/must-fail.yaml"]
    static let profiles = ["--profile", "ios4,ios7"]

    /// Starts `lifebus ARGUMENTS` (each run gives its apps a fresh state folder of its own).
    static func lifebus(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess("lifebus", arguments)
    }

    static func finish(_ child: ChildProcess) -> (status: Int32, out: String, err: String) {
        let out = child.stdout.readAll(timeout: .seconds(600))
        let err = child.stderr.readAll(timeout: .seconds(5))
        return (child.wait(), out, err)
    }

    /// A JUnit file without its `time` attributes (the one thing a run does not repeat).
    static func timeless(_ path: String) -> String {
        (readFile(path) ?? "").replacing(#/ time="[^"]*"/#, with: "")
    }

    @Test func threeShardsMergeToTheUnshardedVerdictJUnitAndCoverage() throws {
        let folder = makeTemporaryFolder("lifebus-shards")
        defer { FolderEntries.removeTree(folder) }
        let whole = Self.finish(try Self.lifebus(
            ["run"] + Self.files + Self.profiles
                + ["--report", "\(folder)/whole.json", "--junit", "\(folder)/whole.xml"]))
        #expect(whole.status == 1, "\(whole.out)\n\(whole.err)")  // must-fail.yaml fails
        let shards = try (1...3).map { index in
            try Self.lifebus(["run"] + Self.files + Self.profiles
                + ["--shard", "\(index)/3", "--timings", "\(folder)/whole.json", "--report", "\(folder)/\(index).json"])
        }.map(Self.finish)
        var runsPerShard: [String] = []
        for shard in shards {
            let first = shard.out.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("shard "), "\(shard.out)\n\(shard.err)")
            runsPerShard.append(first)
        }
        #expect(runsPerShard.allSatisfy { $0.hasSuffix(" of 9 runs (scenario × profile)") }, "\(runsPerShard)")
        let merged = Self.finish(try Self.lifebus(
            ["merge"] + (1...3).map { "\(folder)/\($0).json" } + ["--junit", "\(folder)/merged.xml", "--coverage"]))
        #expect(merged.status == whole.status, "\(merged.out)\n\(merged.err)")
        #expect(Self.timeless("\(folder)/merged.xml") == Self.timeless("\(folder)/whole.xml"))
        let check = try HelperScripts.python("check_junit.py", ["\(folder)/merged.xml", ScenarioRunTests.junitSchema])
        #expect(check.status == 0, "\(check.out)\n\(check.err)")
        // The text: the same lines in the same order, whose seconds aside.
        let seconds = #/  [0-9.]+ s$/#
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n").map { String($0).replacing(seconds, with: "") }
        }
        let wholeLines = lines(whole.out)
        #expect(Array(lines(merged.out).prefix(wholeLines.count)) == wholeLines)
        // The coverage: the unsharded report's, merged alone, is the same table.
        let alone = Self.finish(try Self.lifebus(["merge", "\(folder)/whole.json", "--coverage"]))
        let coverage = { (text: String) in text.split(separator: "\n").drop { !$0.hasPrefix("coverage") } }
        #expect(!coverage(alone.out).isEmpty, "\(alone.out)")
        #expect(coverage(merged.out) == coverage(alone.out))
    }

    @Test func aFuzzCampaignSplitBySeedRangeMergesToTheWholeCampaign() throws {
        let folder = makeTemporaryFolder("lifebus-fuzz-shards")
        defer { FolderEntries.removeTree(folder) }
        let options = ["--app", "\(Self.root)/Examples/manifests/forgetful.json", "--steps", "6", "--profile", "ios7",
                       "--fact", "saves=state-saved"]
        let whole = Self.finish(try Self.lifebus(["run", "--seeds", "33..35"] + options
            + ["-o", "\(folder)/whole.yaml", "--report", "\(folder)/whole.json"]))
        let parts = try [("33..33", "a"), ("34..35", "b")].map { range, name in
            try Self.lifebus(["run", "--seeds", range] + options
                + ["-o", "\(folder)/\(name).yaml", "--report", "\(folder)/\(name).json"])
        }.map(Self.finish)
        #expect(parts.allSatisfy { $0.status == 0 || $0.status == 1 }, "\(parts)")
        let merged = Self.finish(try Self.lifebus(
            ["merge", "\(folder)/a.json", "\(folder)/b.json", "--report", "\(folder)/merged.json"]))
        #expect(merged.status == whole.status, "\(whole.out)\n\(merged.out)\n\(merged.err)")
        func sessions(_ path: String) throws -> [String] {
            let report = try JSONParser.parse(readFile(path) ?? "")
            return (report["fuzz"]?.arrayValue ?? []).map { session in
                ["seed", "profile", "outcome", "steps"]
                    .map { session[$0].map { "\($0)" } ?? "-" }.joined(separator: " ")
            }
        }
        let wholeSessions = try sessions("\(folder)/whole.json")
        #expect(wholeSessions.count == 3)
        #expect(try sessions("\(folder)/merged.json") == wholeSessions)
        #expect(merged.out.contains("fuzz: 3 sessions (seed × profile)"), "\(merged.out)")
    }

    @Test func theCIExamplesPassShardArgumentsThatAreAcceptedAndCoverEveryShard() throws {
        let found = try HelperScripts.python(
            "ci_shard_arguments.py",
            ["\(Self.root)/docs/ci/github-actions.yml", "\(Self.root)/docs/ci/kubernetes-job.yaml"])
        #expect(found.status == 0, "\(found.out)\n\(found.err)")
        var shards: [String: [String]] = [:]
        for line in found.out.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            shards[words[0], default: []].append(words[1])
        }
        #expect(shards["github"] == ["1/4", "2/4", "3/4", "4/4"])
        #expect(shards["kubernetes"] == ["1/4", "2/4", "3/4", "4/4"])
        for shard in Set(shards.values.flatMap { $0 }) {
            // No file given: the usage error is about the files, never about the shard.
            let run = Self.finish(try ChildProcess("lifebus-run", ["--shard", shard]))
            #expect(run.status == 2)
            #expect(run.err.contains("name at least one scenario file"), "\(shard): \(run.err)")
        }
        let refused = Self.finish(try ChildProcess("lifebus-run", ["--shard", "5/4", "x.yaml"]))
        #expect(refused.status == 2)
        #expect(refused.err.contains("--shard"), "\(refused.err)")
    }
}

import Glibc
import LifebusIO
import LifebusJSON
import Testing

/// `lifebus run --scene-order-seed N`: the brokers `lifebus run` starts get the seed of the scene orders Apple does
/// not document, so the same scenario orders two windows' callbacks as that seed says (`lifebusd`'s own tests show
/// the run record naming it). NotesScenes opens a second window, then `home` moves both windows at once: the seed
/// picks which one goes first.
@Suite struct RunSceneOrderSeedTests {
    static let app = "com.example.NotesScenes"
    /// A seed whose order for this scenario differs from the default seed's (found by running it).
    static let otherSeed: UInt64 = 1

    /// A scenario file in a folder of its own: launch NotesScenes, open a second window, go home.
    static func scenario() throws -> String {
        let path = makeTemporaryFolder("lifebus-scene-order-seed") + "/two-windows.yaml"
        let manifest = "\(TranscriptReplayTests.repositoryRoot)/Examples/manifests/notesscenes.json"
        let text = """
            name: two windows go home
            profiles: [ios17]
            apps:
              - manifest: \(manifest)
            steps:
              - fire: launch \(app)
              - fire: scene open \(app)
              - fire: home

            """
        guard let file = fopen(path, "w") else { throw FixtureError("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
        return path
    }

    /// The scene callbacks of the `home` step (`2 sceneWillResignActive`…), run with `arguments` added.
    static func homeOrder(_ file: String, _ arguments: [String]) throws -> [String] {
        let run = try ScenarioRunTests.lifebus(["run", file, "--profile", "ios17", "--json"] + arguments)
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        let report = try JSONParser.parse(run.out)
        let steps = report["runs"]?[0]?["steps"]?.arrayValue ?? []
        let home = try #require(steps.last?["entries"]?.arrayValue, "\(run.out)")
        return home.compactMap { entry in
            guard entry["type"] == "transition", let scene = entry["scene"]?.int64Value,
                let callback = entry["callback"]?.stringValue
            else { return nil }
            return "\(scene) \(callback)"
        }
    }

    /// Removes the scenario file and its folder.
    static func remove(_ file: String) {
        FolderEntries.removeTree(String(file.dropLast("/two-windows.yaml".count)))
    }

    @Test func theSeedReachesTheBrokersLifebusRunStarts() throws {
        let file = try Self.scenario()
        defer { Self.remove(file) }
        let byDefault = try Self.homeOrder(file, [])
        #expect(byDefault.count >= 3, "both windows move: \(byDefault)")
        #expect(try Self.homeOrder(file, ["--scene-order-seed", "0"]) == byDefault, "the default seed is 0")
        let other = try Self.homeOrder(file, ["--scene-order-seed", String(Self.otherSeed)])
        #expect(other != byDefault && other.sorted() == byDefault.sorted(), "the same moves in another order: \(other)")
    }

    @Test func aSeedOutOfRangeOrBesideSocketIsAUsageError() throws {
        let file = try Self.scenario()
        defer { Self.remove(file) }
        let big = try ScenarioRunTests.lifebus(["run", file, "--scene-order-seed", "9223372036854775808"])
        #expect(big.status == 2 && big.err.contains("--scene-order-seed must be an integer from 0 to 2^63-1"),
                "\(big.err)")
        let socket = try ScenarioRunTests.lifebus(["run", file, "--scene-order-seed", "1", "--socket", "/nowhere"])
        #expect(socket.status == 2 && socket.err.contains("not with --socket"), "\(socket.err)")
    }
}

import Glibc
import LifebusIO
import Testing

/// A Swift app with a scene delegate under a profile without scenes (`ios7`): its hello is refused with
/// `lifebus.ScenesUnsupported`, and the SDK says hello again without scenes, so the app runs the app-delegate life
/// cycle, as iOS 12 runs an app with a scene manifest — and `lifebus run --profile ios7,ios27 --diff` compares a Swift
/// scene app across the migration. The app is `Examples/HalfMigrated` (it saves only in `didEnterBackground`),
/// installed from its manifest and started by the real broker.
@Suite struct SwiftSceneFallbackTests {
    static let manifest = "\(TranscriptReplayTests.repositoryRoot)/Examples/manifests/halfmigrated.json"

    /// A scenario file in a folder of its own: home, then the app's callbacks under each life cycle.
    static func scenario() throws -> (file: String, folder: String) {
        let folder = makeTemporaryFolder("lifebus-fallback")
        let file = "\(folder)/half-migrated.yaml"
        let text = """
            name: A Swift scene app under both life cycles
            profiles: [ios7, ios27]
            apps:
              - manifest: \(manifest)
            steps:
              - launch: com.example.HalfMigrated
              - fire: home
              - expect:
                  app: com.example.HalfMigrated
                  callbacks: [didFinishLaunching, configurationForConnecting, willConnectTo, sceneWillEnterForeground,
                              sceneDidBecomeActive, sceneWillResignActive, sceneDidEnterBackground]
                  state: suspended
                  profiles:
                    ios7:
                      callbacks: [didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground]
                      mark: {name: state-saved, data: {note: 1}}

            """
        guard let stream = fopen(file, "w") else { throw FixtureError("cannot write \(file)") }
        fputs(text, stream)
        fclose(stream)
        return (file, folder)
    }

    /// A scenario file in a folder of its own: a cold launch by a deep link (SCENES.md §8 bug 5).
    static func deepLinkScenario() throws -> (file: String, folder: String) {
        let folder = makeTemporaryFolder("lifebus-deep-link")
        let file = "\(folder)/deep-link.yaml"
        let text = """
            name: A cold launch by a deep link
            profiles: [ios7, ios27]
            apps:
              - manifest: \(manifest)
            steps:
              - fire: launch com.example.HalfMigrated --url notes://note/7
              - expect:
                  app: com.example.HalfMigrated
                  state: active

            """
        guard let stream = fopen(file, "w") else { throw FixtureError("cannot write \(file)") }
        fputs(text, stream)
        fclose(stream)
        return (file, folder)
    }

    static func remove(_ scenario: (file: String, folder: String)) {
        FolderEntries.removeTree(scenario.folder)
    }

    @Test func underIOS7TheSceneAppRunsTheAppDelegateLifeCycle() throws {
        let scenario = try Self.scenario()
        defer { Self.remove(scenario) }
        let run = try ScenarioRunTests.lifebus(["run", scenario.file, "--profile", "ios7"])
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("1 passed, 0 failed"), "\(run.out)")
    }

    /// `lifebus run SCENARIO --profile ios7,ios27 --diff` (the scenario removed after): both runs pass and the diff
    /// reports a loss (exit 1).
    static func migrationDiff(of scenario: (file: String, folder: String)) throws
        -> (status: Int32, out: String, err: String)
    {
        defer { remove(scenario) }
        let run = try ScenarioRunTests.lifebus(["run", scenario.file, "--profile", "ios7,ios27", "--diff"])
        #expect(run.status == 1, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("2 runs (scenario × profile): 2 passed, 0 failed"), "\(run.out)")
        return run
    }

    @Test func theMigrationDiffReportsTheSaveLeftInTheAppDelegate() throws {
        let run = try Self.migrationDiff(of: try Self.scenario())
        #expect(run.out.contains("LOST  A Swift scene app under both life cycles"), "\(run.out)")
        #expect(run.out.contains("com.example.HalfMigrated: didEnterBackground is implemented but never called under "
            + "ios27 (it was under ios7): its mark state-saved is missing"), "\(run.out)")
    }

    @Test func theMigrationDiffReportsTheDeepLinkReadFromTheLaunchOptionsOnly() throws {
        let run = try Self.migrationDiff(of: try Self.deepLinkScenario())
        #expect(run.out.contains("LOST  A cold launch by a deep link"), "\(run.out)")
        #expect(run.out.contains("com.example.HalfMigrated: mark deep-link made once under ios7, never under ios27"),
                "\(run.out)")
    }
}

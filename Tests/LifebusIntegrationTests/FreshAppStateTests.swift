import Glibc
import LifebusIO
import Testing

/// `lifebus run` gives every run (scenario × profile) a fresh, empty app state folder (`LIFEBUS_STATE_DIR`, in the
/// private broker's folder, removed with it): the real DeepThoughts saves its state in its first profile's run, and
/// the next profile's run launches it without that state, as a fresh install — a verdict does not depend on the runs
/// before it. The caller's own `LIFEBUS_STATE_DIR` is left untouched.
@Suite struct FreshAppStateTests {
    @Test func aRunDoesNotSeeWhatAnEarlierRunSaved() throws {
        let folder = makeTemporaryFolder("lifebus-fresh-state")
        defer { FolderEntries.removeTree(folder) }
        let file = "\(folder)/fresh.yaml"
        let text = """
            name: fresh state per run
            profiles: [ios7, ios13]
            apps:
              - manifest: \(ScenarioRunTests.root)/Examples/manifests/deepthoughts.json
            steps:
              - launch: com.example.DeepThoughts
              - expect: {mark: {name: state-restored, data: {found: false}}}
              - fire: home
              - expect: {mark: state-saved}

            """
        guard let handle = fopen(file, "w") else { throw FixtureError("cannot write \(file)") }
        fputs(text, handle)
        fclose(handle)
        let callers = makeTemporaryFolder("lifebus-callers-state")
        defer { FolderEntries.removeTree(callers) }
        let child = try ChildProcess("lifebus", ["run", file], environment: ["LIFEBUS_STATE_DIR": callers])
        let out = child.stdout.readAll(timeout: .seconds(120))
        let err = child.stderr.readAll(timeout: .seconds(5))
        #expect(child.wait() == 0, "\(out)\n\(err)")
        #expect(out.contains("2 passed, 0 failed"), "\(out)")
        #expect(FolderEntries.names(in: callers) == [], "the caller's state folder is not the runs'")
    }
}

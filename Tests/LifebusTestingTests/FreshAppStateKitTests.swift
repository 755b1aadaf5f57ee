import Glibc
import LifebusIO
import LifebusLifecycle
import LifebusTesting
import Testing

/// Each live bus gives the apps its broker starts a state folder of its own (`LIFEBUS_STATE_DIR`), fresh and empty,
/// removed with the broker: what one test's app saves never reaches another test. Observed through a real installed
/// app (ReturnMeTo, started by a shell that first writes down the folder it was given), across two buses in turn.
@Suite(.hangGuard)
@MainActor
struct FreshAppStateKitTests {
    @Test func eachLiveBusGivesItsAppsAFreshStateFolderRemovedWithIt() async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        let given = folder + "/given"
        // `$LIFEBUS_STATE_DIR` without braces: the manifest's `${VAR}` expansion leaves it to the shell.
        let command = "printf %s \\\"$LIFEBUS_STATE_DIR\\\" > \(given); exec \(TestMachine.productsFolder)/ReturnMeTo"
        TestMachine.write(
            """
            {"id": "com.example.ReturnMeTo", "executable": "/bin/sh", "arguments": ["-c", "\(command)"]}
            """, to: folder + "/app.json")

        var folders: [String] = []
        for _ in 0..<2 {
            let bus = try await LifebusTestBus(.live, profile: .ios7)
            let id = try await bus.install(manifest: folder + "/app.json")
            let app = try await bus.launch(id)
            let state = try #require(readText(given), "written by the shell before it became the app")
            #expect(state.hasSuffix("/state") && state.hasPrefix("/tmp/lifebus-testing."), "\(state)")
            #expect(!folders.contains(state), "each bus its own folder")
            #expect(FolderEntries.names(in: state) == [], "fresh and empty")
            folders.append(state)
            try await bus.fire(.home)
            try await bus.expect(app, mark: "state-saved")
            #expect(FolderEntries.names(in: state) == ["com.example.ReturnMeTo.state"], "saved in the bus's folder")
            await bus.shutdown()
            #expect(FolderEntries.names(in: state) == nil, "removed with the broker")
        }
    }

    private func readText(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard let line = fgets(&buffer, Int32(buffer.count), file) else { return nil }
        return String(cString: line)
    }
}

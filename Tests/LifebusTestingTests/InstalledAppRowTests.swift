import Glibc
import Lifebus
import LifebusCore
import LifebusLifecycle
import LifebusTesting
import LifecycleContract
import Testing

/// The installed-app rows of `Protocol/lifecycle.md` the kit can say, on the live broker (the in-memory one starts
/// no processes): R140, a launch that spawns the installed app (the ReturnMeTo example) with R40's transitions, and
/// R141, a spawn that fails answered at once.
@Suite("Protocol/lifecycle.md §16.5 through LifebusTesting", .hangGuard)
@MainActor
struct InstalledAppRowTests {
    /// The app id ReturnMeTo says hello with: the row's `B`.
    static let b: AppID = "com.example.ReturnMeTo"

    /// A manifest for the ReturnMeTo example (`executable` instead, if given) in `folder`.
    private static func manifest(in folder: String, executable: String? = nil) -> String {
        let program = executable ?? TestMachine.productsFolder + "/ReturnMeTo"
        TestMachine.write(
            """
            {"id": "\(b)", "executable": "\(program)", "arguments": ["--state-file", "\(folder)/state"]}
            """, to: folder + "/app.json")
        return folder + "/app.json"
    }

    @Test("R140: launching an installed app spawns it, with R40's transitions", arguments: Profile.allCases)
    func r140(_ profile: Profile) async throws {
        let row = try #require(LifecycleTable.launches.first { $0.id == "R40" })
        guard let r40 = row.expected[profile] else {
            // ReturnMeTo does not adopt scenes: under ios27 the row does not apply (S30 is that case).
            #expect(row.inapplicable[profile] != nil, "R40 has no expectation for \(profile)")
            return
        }
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        let bus = try await LifebusTestBus(.live, profile: profile)
        let a = try await bus.launch("A", delegate: LifecycleRowsTests.Answering())
        try await bus.install(manifest: Self.manifest(in: folder))
        let start = bus.timeline.entries.count
        let b = try await bus.launch(Self.b)
        let transitions = bus.timeline.entries.dropFirst(start).compactMap(LifecycleRowsTests.line)
        let expected = r40.journal.filter { !$0.hasPrefix("start ") }.map { line in
            line.hasPrefix("B ") ? "\(Self.b)" + line.dropFirst(1) : line
        }
        #expect(transitions == expected, "\(profile)")
        try await bus.expect(b, state: .active)
        try await bus.expect(a, state: profile == .ios3 ? .notRunning : .suspended)
        await bus.shutdown()
    }

    @Test func r141ASpawnThatFailsIsAnsweredAtOnceNamingThePath() async throws {
        let folder = TestMachine.temporaryFolder()
        defer { TestMachine.remove(folder) }
        TestMachine.write("#!/bin/sh\nexit 0\n", to: folder + "/gone")
        chmod(folder + "/gone", 0o755)
        let bus = try await LifebusTestBus(.live, profile: .ios7)
        try await bus.install(manifest: Self.manifest(in: folder, executable: folder + "/gone"))
        unlink(folder + "/gone")
        await #expect {
            _ = try await bus.launch(Self.b)
        } throws: { error in
            "\(error)".contains(folder + "/gone")
        }
        await bus.shutdown()
    }
}

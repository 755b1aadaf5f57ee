import Glibc
import LifebusIO
@testable import LifebusBrokerLauncher
import Testing

/// The private broker's two faces over one implementation: each starts `lifebusd` on a fresh socket and returns once
/// it accepts connections; each stop reaps it and removes its folder; a broker that exits before it listens or does
/// not listen in time is a `Failure` saying which, with nothing left behind.
@Suite struct BrokerProcessTests {
    /// A launch of the `lifebusd` beside the test bundle whose folder names `test` and this process.
    static func launch(_ test: String, output: BrokerLaunch.Output = .standardError) -> BrokerLaunch {
        BrokerLaunch(arguments: ["--log-level", "error"], purpose: purpose(test), output: output)
    }

    static func purpose(_ test: String) -> String { "lifebus-launch-\(test)-\(getpid())" }

    /// Whether a folder of `test`'s launches is still in `/tmp`.
    static func leftFolder(_ test: String) -> Bool {
        (FolderEntries.names(in: "/tmp") ?? []).contains { $0.hasPrefix(purpose(test) + ".") }
    }

    /// A stand-in broker that never listens (a script kept in the repository: one written by the test could be
    /// held open by a child another test forks meanwhile, and its exec would fail with ETXTBSY).
    static let neverListening: String = {
        let file = #filePath
        return String(file[..<file.lastIndex(of: "/")!]) + "/Fixtures/never-listening-broker"
    }()

    @Test func theBlockingFaceStartsAListeningBrokerAndStopReapsItAndRemovesItsFolder() throws {
        let broker = try BrokerProcess(Self.launch("blocking"))
        #expect(access(broker.socketPath, F_OK) == 0)
        #expect(!broker.hasEnded)
        broker.stop()
        #expect(broker.hasEnded)
        #expect(!Self.leftFolder("blocking"))
        broker.stop()  // idempotent
    }

    @Test func theAsyncFaceStartsAListeningBrokerAndStopReapsItAndRemovesItsFolder() async throws {
        let broker = try await BrokerProcess.start(Self.launch("async", output: .discarded))
        #expect(access(broker.socketPath, F_OK) == 0)
        await broker.stop()
        #expect(broker.hasEnded)
        #expect(!Self.leftFolder("async"))
    }

    @Test func killReapsTheBrokerAndRemovesItsFolder() throws {
        let broker = try BrokerProcess(Self.launch("kill"))
        broker.kill()
        #expect(broker.hasEnded)
        #expect(!Self.leftFolder("kill"))
    }

    @Test func aBrokerThatExitsBeforeListeningIsAFailureSayingSo() async throws {
        var launch = Self.launch("exits")
        launch.program = "/bin/false"  // exits 1 whatever its arguments
        let blocking = #expect(throws: BrokerProcess.Failure.self) { try BrokerProcess(launch) }
        #expect(blocking?.exitedBeforeListening == true, "\(String(describing: blocking))")
        let async = await #expect(throws: BrokerProcess.Failure.self) { try await BrokerProcess.start(launch) }
        #expect(async?.exitedBeforeListening == true, "\(String(describing: async))")
        #expect(!Self.leftFolder("exits"))
    }

    @Test func aBrokerThatNeverListensIsStoppedAtTheStartLimit() throws {
        var launch = Self.launch("never")
        launch.program = Self.neverListening
        launch.startLimit = .milliseconds(300)
        let failure = #expect(throws: BrokerProcess.Failure.self) { try BrokerProcess(launch) }
        #expect(failure?.exitedBeforeListening == false)
        #expect(failure?.description.contains("did not listen") == true, "\(String(describing: failure))")
        #expect(!Self.leftFolder("never"))
    }
}

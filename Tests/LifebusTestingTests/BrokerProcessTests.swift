import Glibc
import LifebusBrokerLauncher
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
        guard let directory = opendir("/tmp") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(purpose(test) + ".") { return true }
        }
        return false
    }

    /// A program that runs `body` whatever its arguments (a shell script in a folder of its own).
    static func script(_ body: String) throws -> (program: String, folder: String) {
        var template = Array("/tmp/lifebus-launch-script.XXXXXX".utf8CString)
        let folder = String(cString: try #require(mkdtemp(&template)))
        let program = folder + "/fake-lifebusd"
        let file = try #require(fopen(program, "w"))
        fputs("#!/bin/sh\n\(body)\n", file)
        fclose(file)
        chmod(program, 0o700)
        return (program, folder)
    }

    static func remove(_ script: (program: String, folder: String)) {
        unlink(script.program)
        rmdir(script.folder)
    }

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
        let script = try Self.script("exit 2")
        defer { Self.remove(script) }
        var launch = Self.launch("exits")
        launch.program = script.program
        let blocking = #expect(throws: BrokerProcess.Failure.self) { try BrokerProcess(launch) }
        #expect(blocking?.exitedBeforeListening == true)
        let async = await #expect(throws: BrokerProcess.Failure.self) { try await BrokerProcess.start(launch) }
        #expect(async?.exitedBeforeListening == true)
        #expect(!Self.leftFolder("exits"))
    }

    @Test func aBrokerThatNeverListensIsStoppedAtTheStartLimit() throws {
        let script = try Self.script("exec sleep 30")
        defer { Self.remove(script) }
        var launch = Self.launch("never")
        launch.program = script.program
        launch.startLimit = .milliseconds(300)
        let failure = #expect(throws: BrokerProcess.Failure.self) { try BrokerProcess(launch) }
        #expect(failure?.exitedBeforeListening == false)
        #expect(failure?.description.contains("did not listen") == true, "\(String(describing: failure))")
        #expect(!Self.leftFolder("never"))
    }
}

import Glibc
import LifebusContainment
import LifebusIO
import LifebusSupervision
import LifebusTestFiles
import Testing

/// After a process's exit was reaped, a signal meant for it reaches nothing, even when its pid now belongs to
/// another process.
@Suite(.serialized) struct PidReuseDrillTests {
    /// Whether this machine lets a test make pid namespaces and steer their next pid (root with `unshare`).
    static let canMakePidNamespaces = getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0

    @Test func afterTheReapThePidfdNamesTheDeadProcessAndTheAppSignalsNothing() throws {
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let request = LaunchRequest(appID: "com.test.gone", executable: "/bin/true", socketPath: "/tmp/x.sock",
                                        logPath: "/dev/null")
            let app = try AppProcess.launch(request, loop: loop) { exits.append($0) }
            let held = try ProcessDescriptor.open(app.pid)  // as the supervisor holds one, kept past the reap
            try loop.run(until: "the exit") { !exits.isEmpty }
            #expect(!unreapedChildren().contains(app.pid))
            #expect(held.hasExited)
            #expect(held.pid == nil)
            #expect(held.send(0) == ESRCH)  // whoever has the pid now, the pidfd still names the dead process
            app.kill(.jetsam)
            app.freeze()
            #expect(!app.isFrozen)
            loop.runOnce(wait: false)
            #expect(exits.count == 1)
        }
    }

    /// The drill proper (`Tests/SupervisionDrill`) as pid 1 of a fresh pid namespace, where nothing competes for
    /// the pid it hands again to a new group leader.
    @Test(.enabled(if: canMakePidNamespaces))
    func aKillAfterTheReapMissesTheProcessThatReusedThePid() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let request = LaunchRequest(
                appID: "drill", executable: "/usr/bin/unshare",
                arguments: ["--pid", "--fork", "--mount-proc", "\(productsFolder)/SupervisionDrill"],
                socketPath: "/tmp/x.sock", logPath: folder.file("drill.log"))
            _ = try AppProcess.launch(request, loop: loop) { exits.append($0) }
            try loop.run(until: "the drill's end") { !exits.isEmpty }
            let log = folder.read("drill.log") ?? ""
            #expect(exits.first?.termination == .exited(0), "\(log)")
            #expect(log.contains("victim-stopped false\n"), "\(log)")
            #expect(log.contains("victim-end signal 15 (Terminated)\n"), "\(log)")
        }
    }
}

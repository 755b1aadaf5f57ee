import Glibc
import LifebusIO
import LifebusSupervision
import Testing

/// After a process's exit was reaped, a signal meant for it reaches nothing, even when its pid now belongs to
/// another process: the pid is really reused here by steering the kernel's next pid (`ns_last_pid`, root only).
@Suite(.serialized) struct PidReuseDrillTests {
    /// Starts `sleep 60` in a group of its own until one gets `pid` (other processes on the machine race for it);
    /// `nil` after `attempts` misses. The misses are killed and reaped.
    private func occupy(_ pid: Int32, loop: EventLoop, attempts: Int = 200) throws -> SpawnedProcess? {
        for _ in 0..<attempts {
            guard let file = fopen("/proc/sys/kernel/ns_last_pid", "w") else { return nil }
            fputs("\(pid - 1)", file)
            fclose(file)
            var ended = false
            let process = try SpawnedProcess.spawn(
                SpawnedProcess.Options(program: "/bin/sleep", arguments: ["60"], ownProcessGroup: true), loop: loop
            ) { _ in ended = true }
            if process.pid == pid { return process }
            process.send(SIGKILL)
            try loop.run(until: "a miss ends") { ended }
        }
        return nil
    }

    @Test func aKillAfterTheReapReachesNothingEvenWhenThePidIsReused() throws {
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let request = LaunchRequest(appID: "com.test.gone", executable: "/bin/true", socketPath: "/tmp/x.sock",
                                        logPath: "/dev/null")
            let app = try AppProcess.launch(request, loop: loop) { exits.append($0) }
            // A pidfd on the same process, as the supervisor holds one, kept past the reap.
            let held = try ProcessDescriptor.open(app.pid)
            try loop.run(until: "the exit") { !exits.isEmpty }
            #expect(!unreapedChildren().contains(app.pid))

            let canSteer = access("/proc/sys/kernel/ns_last_pid", W_OK) == 0
            let victim = canSteer ? try occupy(app.pid, loop: loop) : nil
            #expect(victim != nil || !canSteer, "pid \(app.pid) was never handed out again")
            app.kill(.jetsam)
            app.signal(SIGKILL)
            app.freeze()
            #expect(held.send(SIGKILL) == ESRCH)  // the pidfd names the dead process, not the pid's new owner
            #expect(exits.count == 1)
            guard let victim else { return }  // without root the drill is the pidfd's answer alone

            // Had any SIGKILL or SIGSTOP reached the victim (another process, leading a group of the same number),
            // it would be stopped or end by SIGKILL, which wins over the SIGTERM sent now.
            #expect(victim.pid == app.pid)
            #expect(ProcStat.read(victim.pid)?.isStopped == false)
            victim.send(SIGTERM)
            try loop.run(until: "the victim ends") { victim.termination != nil }
            #expect(victim.termination == .signalled(SIGTERM))
        }
    }
}

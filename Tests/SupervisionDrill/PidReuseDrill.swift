import Glibc
import LifebusIO
import LifebusSupervision

/// The PID-reuse drill, run by `PidReuseDrillTests` as pid 1 of a fresh pid namespace (`unshare --pid --fork
/// --mount-proc`), where no other process competes for pids: an app is started and reaped, its pid is handed to a
/// new process leading a group of the same number (`ns_last_pid`), and every signal the supervisor is asked to
/// send for the dead app must miss it.
///
/// Prints one `name value` line per finding and exits 0 when the victim ended only by the SIGTERM the drill sends
/// it last, 1 otherwise (with `failed REASON`).
enum PidReuseDrill {
    static func main() -> Never {
        do {
            let loop = try EventLoop()
            do {
                try run(loop)
                try loop.close()
                exit(0)
            } catch {
                print("failed \(error)")
                exit(1)  // with the loop still held: a failed drill may leave a handle open
            }
        } catch {
            print("failed \(error)")
            exit(1)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ loop: EventLoop) throws {
        var exits: [ProcessExit] = []
        let request = LaunchRequest(appID: "com.test.gone", executable: "/bin/true", socketPath: "/tmp/x.sock",
                                    logPath: "/dev/null")
        let app = try AppProcess.launch(request, loop: loop) { exits.append($0) }
        while exits.isEmpty { loop.runOnce(wait: true) }
        print("app \(app.pid) \(exits[0].termination)")

        guard let file = fopen("/proc/sys/kernel/ns_last_pid", "w") else { throw Failure(description: "ns_last_pid") }
        fputs("\(app.pid - 1)", file)
        fclose(file)
        var victimEnd: SpawnedProcess.Termination?
        let victim = try SpawnedProcess.spawn(
            SpawnedProcess.Options(program: "/bin/sleep", arguments: ["60"], ownProcessGroup: true), loop: loop
        ) { victimEnd = $0 }
        print("victim \(victim.pid)")
        guard victim.pid == app.pid else { throw Failure(description: "the pid was not reused") }

        app.kill(.jetsam)
        app.signal(SIGKILL)
        app.freeze()
        let stopped = ProcStat.read(victim.pid)?.isStopped ?? true
        print("victim-stopped \(stopped)")
        victim.send(SIGTERM)
        while victimEnd == nil { loop.runOnce(wait: true) }
        print("victim-end \(victimEnd!)")
        guard !stopped, victimEnd == .signalled(SIGTERM), exits.count == 1 else {
            throw Failure(description: "a signal for the dead app reached the victim")
        }
    }
}

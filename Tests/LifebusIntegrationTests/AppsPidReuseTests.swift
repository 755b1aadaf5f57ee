import Glibc
import Testing

/// Issue 7 items 5 and 10, the PID-reuse drill through the broker: an app that connected on its own is killed
/// through the process the broker holds since its `hello`, never through its pid. The broker runs as pid 1 of a
/// fresh pid namespace (`unshare`), where `ns_last_pid` hands the app's pid to another process once the app's
/// process is gone (its connection kept open by a child it forked); a `terminate --by-user` then reaches nothing,
/// and the process that took the pid lives on.
@Suite struct AppsPidReuseTests {
    static let canMakePidNamespaces = getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0
        && access("/usr/bin/nsenter", X_OK) == 0

    /// A Python app: hello as ID, answers every callback, prints its pid (in its namespace); on SIGUSR1 it forks a
    /// child that keeps the connection open and exits.
    static let program = """
        import json, os, signal, socket, sys, time
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(sys.argv[1])
        def leave(*_):
            if os.fork() == 0:
                os.close(1)
                os.close(2)
                time.sleep(1000)
            os._exit(0)
        signal.signal(signal.SIGUSR1, leave)
        print(json.dumps({"pid": os.getpid()}), flush=True)
        def send(message):
            sock.sendall((json.dumps(message) + "\\n").encode())
        send({"jsonrpc": "2.0", "id": "hello", "method": "hello",
              "params": {"role": "app", "protocolVersion": 1, "app": {"id": sys.argv[2]}}})
        for line in sock.makefile("r"):
            message = json.loads(line)
            if "method" in message and "id" in message:
                send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
        """

    /// Runs `arguments` in the pid namespace of `pid` (`nsenter`, which forks into it).
    static func inNamespace(of pid: Int32, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess("/usr/bin/nsenter", ["-t", "\(pid)", "-p", "--"] + arguments)
    }

    @Test(.enabled(if: canMakePidNamespaces))
    func aKillForAnAppWhoseProcessIsGoneMissesTheProcessThatReusedItsPid() throws {
        let broker = try BrokerFixture(wrapper: ["/usr/bin/unshare", "--pid", "--fork"])
        let lifebusd = try #require(SupervisionCheck.children(of: broker.process.pid).first)
        let id = "com.example.Leaver"
        let app = try Self.inNamespace(of: lifebusd, ["/usr/bin/python3", "-u", "-c", Self.program,
                                                      broker.socketPath, id])
        let pid = try #require(app.readJSONLine { $0["pid"] != nil }?["pid"]?.int64Value)
        #expect(try broker.reached(id, "active"))
        #expect(try broker.transitions(of: id).last?["pid"]?.int64Value == pid, "the broker knows it by that pid")

        // The app's process leaves; a child it forked keeps its connection, so the broker still has the app.
        let python = try #require(SupervisionCheck.children(of: app.pid).first)
        kill(python, SIGUSR1)
        #expect(app.waitForExit() == 0, "nsenter reaped it: its pid is free")
        let victim = try Self.inNamespace(of: lifebusd, [
            "/bin/sh", "-c", "echo \(pid - 1) > /proc/sys/kernel/ns_last_pid; sleep 1000 & echo $!; wait",
        ])
        #expect(victim.stdout.readLine().flatMap { Int64($0) } == pid, "the app's pid now names the victim")
        let shell = try #require(SupervisionCheck.children(of: victim.pid).first)
        let sleeper = try #require(SupervisionCheck.children(of: shell).first)
        #expect(try broker.reached(id, "active"))

        #expect(try broker.cli(["fire", "terminate", id, "--by-user"]).status == 0)
        #expect(try broker.reached(id, "notRunning"))
        #expect(try broker.cli(["ping"]).status == 0)
        let state = SupervisionCheck.processState(sleeper)
        #expect(state != nil && state != "Z", "the process that reused the pid was not killed")
        kill(sleeper, SIGKILL)
        _ = victim.waitForExit()
        try SupervisionCheck.run(broker, brokerPID: lifebusd)
    }
}

/// A raw app in a process of its own (a short Python program), for tests where the broker must be free to SIGKILL
/// the app: it says hello as app ID, answers every callback request at once, begins one background task right after
/// answering `didBecomeActive`, and prints every line the broker sends on stdout. Stateless.
enum ScriptedApp {
    /// Starts the app on `broker`'s socket.
    static func start(_ broker: BrokerFixture, id: String) throws -> ChildProcess {
        try ChildProcess("/usr/bin/python3", ["-u", "-c", program, broker.socketPath, id])
    }

    private static let program = """
        import json, socket, sys
        path, app = sys.argv[1], sys.argv[2]
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        def send(message):
            sock.sendall((json.dumps(message) + "\\n").encode())
        send({"jsonrpc": "2.0", "id": "hello", "method": "hello",
              "params": {"role": "app", "protocolVersion": 1, "app": {"id": app}}})
        for line in sock.makefile("r"):
            print(line.rstrip("\\n"), flush=True)
            message = json.loads(line)
            if "method" in message and "id" in message:
                send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
                if message["method"] == "didBecomeActive":
                    send({"jsonrpc": "2.0", "id": "task", "method": "beginBackgroundTask",
                          "params": {"name": "upload"}})
        """
}

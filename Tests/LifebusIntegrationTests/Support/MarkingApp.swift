/// A raw app in a process of its own (a short Python program) that journals long lines as fast as the broker takes
/// them: it says hello as app ID, then marks `long` with `bytes` of data, again and again, each after the last was
/// answered, answering every callback request at once meanwhile. It ends (status 0) when the broker goes.
/// Stateless.
enum MarkingApp {
    /// Starts the app on `broker`'s socket.
    static func start(_ broker: BrokerFixture, id: String, bytes: Int) throws -> ChildProcess {
        try ChildProcess("/usr/bin/python3", ["-u", "-c", program, broker.socketPath, id, "\(bytes)"])
    }

    private static let program = """
        import json, socket, sys
        path, app, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        def send(message):
            sock.sendall((json.dumps(message) + "\\n").encode())
        def mark(number):
            send({"jsonrpc": "2.0", "id": number, "method": "mark",
                  "params": {"name": "long", "data": {"number": number, "text": "m" * size}}})
        send({"jsonrpc": "2.0", "id": "hello", "method": "hello",
              "params": {"role": "app", "protocolVersion": 1, "app": {"id": app}}})
        number = 0
        try:
            for line in sock.makefile("r"):
                message = json.loads(line)
                if "method" in message and "id" in message:
                    send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
                elif message.get("id") == "hello" or message.get("id") == number:
                    number += 1
                    mark(number)
        except (OSError, ValueError):
            pass  # the broker went (mid-line, perhaps): done
        """
}

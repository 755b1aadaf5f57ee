import Glibc
import LifebusIO
import LifebusJSON
import LifebusSupervision
import LifebusTestFiles

/// A real `lifebusd` on a private socket, and the `lifebus` CLI and example apps against it, all started as apps
/// of the supervisor (`AppProcess`, output to log files in `folder`): the supervision layer drives real programs.
///
/// Owns the broker's `AppProcess` and the folder's files; every process it starts is killed by `stop()` or dies
/// with the test process (`diesWithParent`). Loop-bound like `AppProcess`.
final class BrokerUnderSupervision {
    let folder: TemporaryFolder
    let loop: EventLoop
    let socketPath: String
    private(set) var broker: AppProcess?
    private var exits: [String: ProcessExit] = [:]
    private var counter = 0

    /// Starts the broker and returns once it printed its `listening on` line.
    init(loop: EventLoop, folder: TemporaryFolder) throws {
        self.loop = loop
        self.folder = folder
        socketPath = folder.file("bus.sock")
        let journal = folder.file("journal.jsonl")
        broker = try start("lifebusd", id: "lifebusd", ["--socket", socketPath, "--journal", journal])
        try loop.run(until: "the broker listening") { folder.read("lifebusd.log")?.contains("listening on") == true }
    }

    /// Starts product `product` as app `id` with `arguments`; its output goes to `<id>.log`.
    func start(_ product: String, id: String, _ arguments: [String]) throws -> AppProcess {
        let request = LaunchRequest(appID: id, executable: "\(productsFolder)/\(product)", arguments: arguments,
                                    socketPath: socketPath, logPath: folder.file("\(id).log"))
        return try AppProcess.launch(request, loop: loop) { [weak self] in self?.exits[$0.appID] = $0 }
    }

    /// How the process started as `id` ended, once it did.
    func exit(of id: String) -> ProcessExit? { exits[id] }

    /// Runs `lifebus ARGUMENTS --socket PATH` to its end; its exit status and output (stdout and stderr).
    func cli(_ arguments: [String]) throws -> (status: Int32, output: String) {
        counter += 1
        let id = "cli-\(counter)"
        _ = try start("lifebus", id: id, arguments + ["--socket", socketPath])
        try loop.run(until: "lifebus \(arguments.joined(separator: " "))") { exits[id] != nil }
        return (exits[id]?.termination.shellStatus ?? -1, folder.read("\(id).log") ?? "")
    }

    /// The marks of `app` in the broker's history.
    func marks(of app: String) throws -> [JSONValue] {
        try cli(["history", app, "--json"]).output.split(separator: "\n")
            .compactMap { try? JSONParser.parse(String($0)) }
            .filter { $0["type"]?.stringValue == "mark" }
    }

    /// The state `lifebus status --json` reports for `app`.
    func state(of app: String) throws -> String? {
        let status = try JSONParser.parse(try cli(["status", "--json"]).output)
        return status["apps"]?.arrayValue?.first { $0["id"]?.stringValue == app }?["state"]?.stringValue
    }

    /// Stops the broker (SIGTERM) and waits for its exit.
    func stop() throws {
        broker?.signal(SIGTERM)
        try loop.run(until: "the broker's exit") { exits["lifebusd"] != nil }
        broker = nil
    }
}

import Glibc
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// One app connection of a row as the test drives it: the socket (read through a `LineReader`) and its carrier.
///
/// Owned by the `RowRunner` that opened it, on that runner's thread. Invariant: once `isOpen` is false the socket is
/// closed and nothing more is sent or read.
final class RowApp {
    let name: AppID
    let carrier: RowAppCarrier
    let reader: LineReader
    var isOpen = true
    /// The app answered `willTerminate` and its process is exiting: it sends nothing more.
    var isExiting = false
    /// Callback requests received and not answered yet (the app may be held), in order.
    var queued: [(id: JSONValue, callback: String)] = []

    init(name: AppID, carrier: RowAppCarrier) {
        self.name = name
        self.carrier = carrier
        reader = LineReader(descriptor: carrier.socket)
    }

    /// Writes one message as a line; a connection the broker closed just drops it (never SIGPIPE).
    func send(_ message: JSONValue) {
        guard isOpen, !isExiting else { return }
        let bytes = Array(message.jsonText.utf8) + [0x0A]
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(reader.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// Waiting: everything the runner reads arrives here, and is handled as the app, the controller or the launcher.
extension RowRunner {
    /// Answers callbacks one per round and pumps until every request sent has its answer and a round of pings on
    /// every connection brings nothing new: the broker writes what an input causes before it reads the next line,
    /// so a ping's answer arriving after an app's answer means every callback that answer caused is on its way.
    func settle() throws {
        for _ in 0..<200 {
            activity = answerNext()
            for live in connections where live.isOpen && !live.isExiting {
                let id = nextID()
                awaiting[id] = Awaited(connection: live, kind: .ping)
                live.send(.request(id: id, method: "ping", params: [:]))
            }
            let id = nextID()
            awaiting[id] = Awaited(connection: nil, kind: .ping)
            controller.sendLine(JSONValue.request(id: id, method: "ping", params: [:]).jsonText)
            guard pump(until: { self.awaiting.isEmpty }, timeout: .seconds(10)) else {
                throw FixtureError("the broker left \(awaiting.count) request(s) unanswered")
            }
            if !activity { return }
        }
        throw FixtureError("the row never settled")
    }

    /// Answers the first callback queued at the first app by name that is not held. One answer per `settle` round
    /// is the core harness's order: concurrent callbacks (a memory warning to several apps) are recorded as the
    /// table lists them, not in whichever order two sockets happen to be read.
    @discardableResult
    func answerNext() -> Bool {
        let ready = connections.filter { $0.isOpen && !$0.isExiting && !$0.queued.isEmpty && !held.contains($0.name) }
        guard let live = ready.min(by: { $0.name < $1.name }) else { return false }
        let request = live.queued.removeFirst()
        answer(live, id: request.id, callback: request.callback)
        return true
    }

    /// Pumps until `condition` holds; false if `timeout` passes first.
    func pump(until condition: () -> Bool, timeout: Duration) -> Bool {
        let deadline = Deadline(after: timeout)
        while !condition() {
            if deadline.hasPassed { return false }
            pumpOnce(waitMilliseconds: min(deadline.remainingMilliseconds, 50))
        }
        return true
    }

    /// Pumps, answering callbacks as they come, until `condition` holds; false if `timeout` passes first.
    func pumpAnswering(until condition: () -> Bool, timeout: Duration) -> Bool {
        let deadline = Deadline(after: timeout)
        while !condition() {
            if deadline.hasPassed { return false }
            pumpOnce(waitMilliseconds: min(deadline.remainingMilliseconds, 50))
            while answerNext() {}
        }
        return true
    }

    /// Pumps for `seconds` of real time: the rows' `elapse`, whose meaning is time passing.
    func pump(for seconds: Double) {
        let deadline = Deadline(after: .nanoseconds(Int64(seconds * 1e9)))
        while !deadline.hasPassed {
            pumpOnce(waitMilliseconds: min(deadline.remainingMilliseconds, 50))
            while answerNext() {}
        }
    }

    /// Handles every line already readable, then waits up to `waitMilliseconds` for more.
    private func pumpOnce(waitMilliseconds: Int32) {
        var progressed = true
        while progressed {
            progressed = false
            while let line = controller.readLine(timeout: .zero) {
                handleController(line)
                progressed = true
            }
            for live in connections where live.isOpen {
                while live.isOpen, let line = live.reader.readLine(timeout: .zero) {
                    handle(line, from: live)
                    progressed = true
                }
                if live.isOpen && live.reader.reachedEnd {
                    close(live)  // the broker closed it (a kill, or a refused hello)
                    activity = true
                    progressed = true
                }
            }
            while let line = broker.process.stderr.readLine(timeout: .zero) {
                handleLog(line)
                progressed = true
            }
        }
        var descriptors = [controller.descriptor, broker.process.stderr.descriptor]
            + connections.filter(\.isOpen).map(\.reader.descriptor)
        descriptors.removeAll { $0 < 0 }
        var pollers = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&pollers, nfds_t(pollers.count), waitMilliseconds)
    }

    private func handleController(_ line: String) {
        guard let message = parsed(line), let id = message["id"]?.stringValue else { return }
        if pendingFires.remove(id) != nil {
            if let error = message["error"] {
                let reason = error["data"]?["reason"]?.stringValue ?? error["data"]?["name"]?.stringValue ?? "?"
                observation.rejections.append("reject \(reason)")
            }
            activity = true
        } else if let awaited = awaiting.removeValue(forKey: id), case .call = awaited.kind {
            answers[id] = message
        }
    }

    private func handle(_ line: String, from live: RowApp) {
        guard let message = parsed(line) else {
            observation.problems.append("\(live.name) got a line that is not JSON: \(line)")
            return
        }
        if let method = message["method"]?.stringValue {
            activity = true
            if let id = message["id"] {
                if let reason = message["params"]?["launchReason"]?.stringValue {
                    observation.launches.append("launch \(live.name) \(method) \(reason)")
                }
                if let options = message["params"]?["launchOptions"] {
                    observation.launches.append(
                        "launch \(live.name) \(method) launchOptions" + (options["url"] == nil ? "" : " url")
                            + (options["remoteNotification"] == nil ? "" : " remoteNotification"))
                }
                live.queued.append((id, method))
            } else if method == LifebusMethod.backgroundTaskExpiring,
                let taskID = message["params"]?["taskID"]?.int64Value
            {
                expiringTasks.append((live.name, taskID))  // may arrive before the task's own id: named at the end
            } else if method == LifebusMethod.error {
                noteRefusal(message["params"], of: live)
            }
            return
        }
        guard let id = message["id"]?.stringValue, let awaited = awaiting.removeValue(forKey: id) else { return }
        let error = message["error"]
        switch awaited.kind {
        case .ping, .call:
            break
        case .hello:
            if let error {
                noteRefusal(error, of: live)
            } else {
                apps[live.name] = live
            }
        case .beginTask(let app, let number):
            if let taskID = message["result"]?["taskID"]?.int64Value {
                taskIDs[app, default: [:]][number] = taskID
            } else if let error {
                observation.rejections.append("reject \(Self.reason(of: error))")
            }
        case .refusable:
            if let error { observation.rejections.append("reject \(Self.reason(of: error))") }
        }
    }

    /// A refused app connection: `AppIDInUse` is the wire's spelling of the core's `alreadyConnected`.
    private func noteRefusal(_ error: JSONValue?, of live: RowApp) {
        let name = error?["data"]?["name"]?.stringValue
        let line = switch name {
        case "lifebus.AppIDInUse": "reject alreadyConnected"
        case "lifebus.ScenesUnsupported": "reject scenesUnsupported"
        default: "reject \(name ?? "?")"
        }
        observation.rejections.append(line)
        if apps[live.name] == nil { refusedAtHello.insert(live.name) }
        live.carrier.crash()
        close(live)
        activity = true
    }

    private static func reason(of error: JSONValue) -> String {
        error["data"]?["reason"]?.stringValue ?? error["data"]?["name"]?.stringValue ?? "?"
    }

    /// The broker's log is where it says that it wants a process started and that it killed one: the runner plays
    /// the launcher (connecting the app, unless the row forbids it) and notes both as journal lines.
    private func handleLog(_ line: String) {
        let fields = Self.logFields(line)
        guard let id = fields["lifebus.app.id"], id.hasPrefix(Self.appIDPrefix) else { return }
        let app = AppID(String(id.dropFirst(Self.appIDPrefix.count)))
        if line.hasSuffix("waiting for the app to connect (it is not installed)") {
            observation.processes.append("start \(app)")
            activity = true
            guard !unspawnable.contains(app) else { return }
            do {
                try connect(app)
            } catch {
                observation.problems.append("cannot start \(app): \(error)")
            }
        } else if line.hasSuffix(" killed"), let reason = fields["lifebus.kill.reason"] {
            observation.processes.append("kill \(app) \(reason)")
            observation.killedPIDs.append(fields["lifebus.app.pid"].flatMap { Int32($0) } ?? 0)
            activity = true
        }
    }

    /// The `key=value` metadata of one `swift-log` stream line.
    private static func logFields(_ line: String) -> [String: String] {
        var fields: [String: String] = [:]
        for token in line.split(separator: " ") {
            guard let equals = token.firstIndex(of: "=") else { continue }
            fields[String(token[..<equals])] = String(token[token.index(after: equals)...])
        }
        return fields
    }
}

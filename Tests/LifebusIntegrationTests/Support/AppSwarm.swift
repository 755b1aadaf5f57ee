import Glibc

/// Many app connections for the fault drills, cheap enough for a thousand: forked `RowAppCarrier`s hold them (one
/// process per batch, so the broker's kills hit a carrier, never the test), and the test speaks every app's side
/// from one `poll` loop, answering each callback request at once unless told to hold it.
///
/// Owns the carriers, their sockets and each connection's unread bytes. Used by one test on one thread. Invariants:
/// `apps[i]` is app `"\(prefix).\(i)"`; each app says hello (launched in the background, `audio` mode, so it is
/// never suspended and gets every memory warning) before the next batch connects, so a broker's cap on connections
/// that have not said hello never sees more than one batch.
final class AppSwarm {
    struct App {
        let id: String
        let socket: Int32
        var unread: [UInt8] = []
        /// The callbacks answered (their names) and the callback requests held (their ids, read and not answered).
        var answered: [String] = []
        var held: [String] = []
        var ended = false
    }

    /// The broker's cap on silent connections per uid (`Protocol/README.md` §15.1): a carrier connects its batch
    /// before any of them says hello, so a larger batch would have its oldest connections sent away.
    static let batchSize = 8
    private(set) var apps: [App] = []
    private var carriers: [RowAppCarrier] = []
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    /// Whether a callback request to app `index` named `method` is answered at once.
    var answers: (_ index: Int, _ method: String) -> Bool = { _, _ in true }

    /// Connects `count` apps `PREFIX.0`…; returns once every hello is answered (the apps launch meanwhile).
    init(broker: BrokerFixture, count: Int, prefix: String, timeout: Duration = .seconds(60)) throws {
        let deadline = Deadline(after: timeout)
        var next = 0
        while next < count {
            let size = min(Self.batchSize, count - next)
            let carrier = try RowAppCarrier(socketPath: broker.socketPath, connections: size)
            carriers.append(carrier)
            for socket in carrier.sockets {
                let id = "\(prefix).\(next)"
                next += 1
                apps.append(App(id: id, socket: socket))
                let app = #"{"id":"\#(id)","backgroundModes":["audio"],"launchInBackground":true}"#
                let params = #"{"role":"app","protocolVersion":1,"app":\#(app)}"#
                send(#"{"jsonrpc":"2.0","id":"hello","method":"hello","params":\#(params)}"#, to: apps.count - 1)
            }
            var hellos = 0
            var refusals: [String] = []
            _ = pump(until: deadline) { line, _ in
                guard line.contains(#""id":"hello""#) else { return }
                hellos += 1
                if !line.contains(#""result""#) { refusals.append(line) }
            } done: { hellos == size }
            guard hellos == size, refusals.isEmpty else {
                throw FixtureError("\(hellos) of \(size) apps answered, refused: \(refusals.prefix(3))")
            }
        }
    }

    deinit {
        for app in apps { close(app.socket) }
    }

    /// Raises this process's soft descriptor limit to at least `count` (within the hard limit) before a broker is
    /// started, which inherits it: a thousand apps hold a thousand sockets on each side.
    static func allowDescriptors(_ count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Reads every app (and `also`, a controller whose readable lines go to `onLine` with index -1), answering
    /// callbacks, until `done()` holds or the deadline passes; returns whether `done()` held.
    @discardableResult
    func pump(until deadline: Deadline, also controller: RawClient? = nil,
              onLine: (_ line: String, _ app: Int) -> Void = { _, _ in }, done: () -> Bool) -> Bool {
        var polls = apps.map { pollfd(fd: $0.ended ? -1 : $0.socket, events: Int16(POLLIN), revents: 0) }
        if let controller { polls.append(pollfd(fd: controller.descriptor, events: Int16(POLLIN), revents: 0)) }
        while !done() {
            if let controller {
                while let line = controller.readLine(timeout: .zero) { onLine(line, -1) }
                if done() { return true }
            }
            guard !deadline.hasPassed else { return false }
            guard poll(&polls, nfds_t(polls.count), deadline.remainingMilliseconds) > 0 else { continue }
            for index in apps.indices where polls[index].revents != 0 {
                for line in read(app: index) { handle(line, app: index, onLine: onLine) }
                if apps[index].ended { polls[index].fd = -1 }
            }
        }
        return true
    }

    /// Answers the callback request `id` (as held earlier) for app `index`.
    func answer(_ id: String, app index: Int) {
        send(#"{"jsonrpc":"2.0","id":\#(id),"result":{}}"#, to: index)
    }

    private func handle(_ line: String, app index: Int, onLine: (String, Int) -> Void) {
        if let method = Self.member("method", of: line)?.dropFirst().dropLast(), let id = Self.member("id", of: line) {
            if answers(index, String(method)) {
                answer(id, app: index)
                apps[index].answered.append(String(method))
            } else {
                apps[index].held.append(id)
            }
        }
        onLine(line, index)
    }

    /// The raw JSON text of the first member `name` of a line, as the broker writes its envelope first (a string
    /// keeps its quotes; the value must hold no comma or brace). `strstr`: the drill reads a hundred thousand lines.
    static func member(_ name: String, of line: String) -> String? {
        line.withCString { text in
            "\"\(name)\":".withCString { key in
                guard let found = strstr(text, key) else { return nil }
                let start = found + strlen(key)
                let length = strcspn(start, ",}")
                return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
            }
        }
    }

    private func read(app index: Int) -> [String] {
        let count = readBuffer.withUnsafeMutableBytes { Glibc.read(apps[index].socket, $0.baseAddress, $0.count) }
        guard count > 0 else {
            apps[index].ended = true
            return []
        }
        apps[index].unread.append(contentsOf: readBuffer[0..<count])
        var lines: [String] = []
        while let newline = apps[index].unread.firstIndex(of: 0x0A) {
            lines.append(String(decoding: apps[index].unread[..<newline], as: UTF8.self))
            apps[index].unread.removeSubrange(...newline)
        }
        return lines
    }

    private func send(_ line: String, to index: Int) {
        let bytes = Array(line.utf8) + [0x0A]
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(apps[index].socket, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }
}

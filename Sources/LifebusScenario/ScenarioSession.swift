import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC

/// A controller's conversation with the broker, asked one request at a time on the calling thread: `call` sends a
/// request and turns the loop until its answer comes, the connection ends, or a deadline in real time passes (the
/// broker's clock may be manual, so the runner's patience is measured in real time, not on the broker's clock).
///
/// A call still unanswered after `noticeAfter` says on stderr what it waits for and how long (no wait is silent).
///
/// Owns its loop and the one peer. Used from the thread that opened it. Invariant: after `close()` (or the deinit,
/// also of a session whose opening failed) the peer and the loop are closed; a call after the connection ended fails
/// at once with `connectionClosed`.
final class ScenarioSession {
    /// How long a call waits in silence before it says what it waits for.
    static let noticeAfter = Duration.seconds(2)

    private let loop: EventLoop
    private var peer: RPCPeer?
    private var ended = false
    private var closed = false

    /// Connects to `path` and says hello as a controller.
    init(path: String) throws(RPCError) {
        do throws(UVError) {
            loop = try EventLoop()
        } catch {
            throw RPCError(code: RPCError.internalErrorCode, message: "cannot make an event loop: \(error)")
        }
        let hello = HelloParams(role: .controller, protocolVersion: ProtocolVersion.current, clientName: "lifebus-run")
        let opened = Box<Result<RPCPeer, RPCError>>()
        BrokerSession.open(path: path, hello: hello, loop: loop) { result in
            opened.value = result.map(\.0).mapError { failure in
                switch failure {
                case .refused(let error): error
                case .unreachable, .untrusted: RPCError(.connectionClosed, "\(failure)")
                }
            }
        }
        while opened.value == nil, loop.runOnce(wait: true) {}
        switch opened.value {
        case .success(let peer):
            self.peer = peer
            peer.onEnd = { [unowned self] _ in self.ended = true }
        case .failure(let error):
            throw error
        case nil:
            throw RPCError(.connectionClosed, "the broker at \(path) did not answer hello")
        }
    }

    deinit {
        close()
    }

    /// Sends `method` and returns its answer, or fails with `connectionClosed` or, after `timeout`, `timedOut`.
    func call(_ method: String, _ params: JSONValue, timeout: Duration) -> Result<JSONValue, RPCError> {
        answer(to: send(method, params), timeout: timeout)
    }

    /// Sends `method` without waiting: its answer lands in the box the loop fills (see `answer(to:timeout:)`).
    func send(_ method: String, _ params: JSONValue) -> PendingCall {
        let pending = PendingCall(method: method)
        guard let peer, !ended else {
            pending.value = .failure(RPCError(.connectionClosed, "the broker closed the connection"))
            return pending
        }
        _ = peer.request(method, params: params) { pending.value = $0 }
        return pending
    }

    /// The answer to a request sent with `send`, waiting for it at most `timeout`.
    func answer(to pending: PendingCall, timeout: Duration) -> Result<JSONValue, RPCError> {
        let notice = "lifebus run: waiting for the broker's answer to \(pending.method) (at most "
            + "\(DurationText.format(timeout)))"
        guard turn(for: timeout, until: { pending.value != nil }, notice: notice) else {
            if ended { return .failure(RPCError(.connectionClosed, "the broker closed the connection")) }
            return .failure(RPCError(
                .timedOut, "no answer to \(pending.method) within \(DurationText.format(timeout))"))
        }
        return pending.value ?? .failure(RPCError(.connectionClosed, "the broker closed the connection"))
    }

    /// Turns the loop for `duration` (a poll's interval, while the broker's messages keep flowing).
    func pause(_ duration: Duration) {
        _ = turn(for: duration, until: { false })
    }

    /// Turns the loop until `done()` holds (true), the connection ends or `limit` passes (false). The limit is a
    /// timer's: its firing is what ends the wait, so the loop never blocks past it.
    /// Turns the loop until `done`, the connection's end, or `limit`; says `notice` on stderr if it is still
    /// turning after `noticeAfter`.
    private func turn(for limit: Duration, until done: () -> Bool, notice: String? = nil) -> Bool {
        let expired = Box<Bool>()
        let timer: LoopTimer
        do throws(UVError) {
            timer = try LoopTimer(loop: loop)
        } catch {
            return done()
        }
        // The timer counts from the loop's cached time, which is stale by however long the caller ran since the
        // loop last turned: it may be due at once, fired by libuv's timers before the poll (libuv 1.44), and the
        // poll would then block for I/O with no timer left (forever, when the broker has nothing to send). Stopping
        // the loop from the handler makes that poll return at once.
        let loop = loop
        timer.start(after: limit) {
            expired.value = true
            loop.stop()
        }
        defer { timer.close() }
        let noticeTimer = notice.flatMap { text -> LoopTimer? in
            guard limit > Self.noticeAfter, let timer = try? LoopTimer(loop: loop) else { return nil }
            timer.start(after: Self.noticeAfter) { StandardError.writeLine(text) }
            return timer
        }
        defer { noticeTimer?.close() }
        while !done(), !ended, expired.value == nil {
            _ = loop.runOnce(wait: true)
        }
        return done()
    }

    /// Closes the connection (if one was opened) and the loop; once.
    func close() {
        guard !closed else { return }
        closed = true
        if let peer {
            self.peer = nil
            peer.onEnd = nil
            peer.close()
        }
        while loop.runOnce(wait: false) {}
        try? loop.close()
    }
}

/// A mutable cell a loop callback fills and the calling code reads, on one thread.
class Box<Value> {
    var value: Value?
}

/// A request sent and perhaps not yet answered: its answer, once the loop has delivered it.
final class PendingCall: Box<Result<JSONValue, RPCError>> {
    let method: String

    init(method: String) {
        self.method = method
    }
}

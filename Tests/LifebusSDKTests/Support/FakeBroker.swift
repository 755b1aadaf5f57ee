import Glibc
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC
import Synchronization

/// A stand-in broker for SDK tests: listens on a Unix socket on a loop of its own thread, accepts apps, answers
/// their requests (hello, mark, reportMemory, begin/endBackgroundTask with ids it mints) and lets the test send
/// callback requests and notifications to the app connected last.
///
/// Everything libuv lives on the broker's loop thread; the test talks to it through `executor` and reads what
/// happened from `events` (one event per app request, connection and disconnection, in order).
final class FakeBroker: Sendable {
    enum Event: Sendable, Equatable {
        case request(method: String, params: JSONValue)
        case disconnected
    }

    let path: String
    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let executor: LoopExecutor
    private let state: LoopBound<State>
    private let stopped: Mutex<CheckedContinuation<Void, Never>?>

    /// What the loop thread owns.
    final class State {
        var listener: Listener?
        var peer: RPCPeer?
        var nextTaskID: Int64 = 1
        var openTasks: Set<Int64> = []
    }

    /// Starts listening at `path` and returns once it listens.
    static func start(path: String) async throws -> FakeBroker {
        let ready: Result<FakeBroker, UVError> = await withCheckedContinuation { ready in
            DetachedThread.start {
                let loop = try! EventLoop()
                let broker = FakeBroker(path: path, loop: loop)
                do throws(UVError) {
                    try broker.listen(loop: loop)
                    ready.resume(returning: .success(broker))
                } catch {
                    ready.resume(returning: .failure(error))
                }
                loop.run()
                try! loop.close()
                broker.stopped.withLock { $0?.resume() }
            }
        }
        return try ready.get()
    }

    private init(path: String, loop: EventLoop) {
        self.path = path
        (events, continuation) = AsyncStream.makeStream()
        executor = loop.executor
        state = LoopBound(State(), loop: loop)
        stopped = Mutex(nil)
    }

    private func listen(loop: EventLoop) throws(UVError) {
        state.value.listener = try Listener.listen(on: .unix(path), loop: loop) { [self] connection in
            let peer = RPCPeer(connection: connection)
            state.value.peer = peer
            peer.onRequest = { [self] request, responder in answer(request, responder) }
            peer.onEnd = { [self] _ in
                if state.value.peer === peer { state.value.peer = nil }  // kept until its end: it must outlive reads
                continuation.yield(.disconnected)
            }
            peer.start()
        }
    }

    private func answer(_ request: RPCRequest, _ responder: RPCResponder) {
        let params = request.params ?? .null
        continuation.yield(.request(method: request.method, params: params))
        let state = state.value
        switch request.method {
        case LifebusMethod.hello:
            let identity = PeerIdentity(pid: 0, uid: getuid(), gid: getgid())
            responder.succeed(HelloResult(role: .app, peer: identity, profile: .ios7).json)
        case LifebusMethod.beginBackgroundTask:
            let taskID = state.nextTaskID
            state.nextTaskID += 1
            state.openTasks.insert(taskID)
            responder.succeed(BackgroundTaskBeginResult(taskID: taskID).json)
        case LifebusMethod.endBackgroundTask:
            guard let taskID = params["taskID"]?.int64Value, state.openTasks.remove(taskID) != nil else {
                responder.fail(.invalidParams(field: "taskID", "is not an open task"))
                return
            }
            responder.succeed([:])
        default:
            responder.succeed([:])
        }
    }

    /// Sends `callback` to the app connected last and returns its answer.
    func send(_ callback: CallbackParams) async -> Result<JSONValue, RPCError> {
        await send(method: callback.callback.rawValue, params: callback.json)
    }

    /// Sends any request to the app connected last and returns its answer.
    func send(method: String, params: JSONValue) async -> Result<JSONValue, RPCError> {
        let state = state
        return await withCheckedContinuation { answer in
            executor.execute {
                guard let peer = state.value.peer else {
                    answer.resume(returning: .failure(RPCError(.connectionClosed, "no app connected")))
                    return
                }
                peer.request(method, params: params) { answer.resume(returning: $0) }
            }
        }
    }

    /// Sends a notification to the app connected last.
    func notify(method: String, params: JSONValue) {
        let state = state
        executor.execute { state.value.peer?.notify(method, params: params) }
    }

    /// Closes the listener (removing the socket file) and every connection; returns once the loop is closed.
    func stop() async {
        let state = state
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            stopped.withLock { $0 = done }
            executor.execute {
                state.value.listener?.close()
                state.value.listener = nil
                state.value.peer?.close()
            }
        }
        continuation.finish()
    }

    /// The next event; fails the test (by returning nil) when the stream ended.
    func next() async -> Event? {
        var iterator = events.makeAsyncIterator()
        return await iterator.next()
    }

    /// The next request, skipping disconnections.
    func nextRequest() async -> (method: String, params: JSONValue)? {
        while let event = await next() {
            if case .request(let method, let params) = event { return (method, params) }
        }
        return nil
    }

    /// A unique socket path for one test.
    static func temporaryPath() -> String {
        "/tmp/lifebus-sdk-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).sock"
    }
}

public import LifebusIO
public import LifebusProtocol

/// Opens a session with the broker (`BrokerSession.open`), trying again under a `RetryPolicy`: the one
/// connect-and-retry client of the CLI and the SDK.
///
/// Owns its retry timer and at most one run of attempts at a time. Bound to its loop's thread. Invariants: a run's
/// completion is called exactly once — with the session, or with the failure the policy gave up on — unless the run
/// is cancelled, after which it is never called and a session that still opens is closed; the retry timer is open
/// only while a run is under way (after a completion or `cancel()`, nothing of the connector keeps the loop open).
public final class BrokerConnector {
    public typealias Completion = (Result<(RPCPeer, HelloResult), BrokerSession.Failure>) -> Void

    private let path: String
    private let hello: HelloParams
    private let loop: EventLoop
    private let onRequest: ((RPCRequest, RPCResponder) -> Void)?
    /// Told of each failure that will be retried and the wait before the next attempt (diagnostics).
    public var onRetry: ((BrokerSession.Failure, Duration) -> Void)?
    private var timer: LoopTimer?
    /// The current run: bumped by `connect` and `cancel`, so an attempt of an older run is recognised.
    private var run = 0
    private var isRunning = false

    public init(
        path: String, hello: HelloParams, loop: EventLoop, onRequest: ((RPCRequest, RPCResponder) -> Void)? = nil
    ) {
        self.path = path
        self.hello = hello
        self.loop = loop
        self.onRequest = onRequest
    }

    /// Starts a run of attempts (cancelling one under way): at once, or after the policy's first delay with
    /// `waitingFirst` (a reconnection after a loss).
    public func connect(policy: RetryPolicy, waitingFirst: Bool = false, _ completion: @escaping Completion) {
        loop.preconditionInLoop()
        run += 1
        isRunning = true
        let started = EventLoop.monotonicNanoseconds()
        var schedule = RetrySchedule(policy)
        let thisRun = run
        func attempt() {
            BrokerSession.open(path: path, hello: hello, loop: loop, onRequest: onRequest) { [self] opened in
                guard run == thisRun, isRunning else {
                    if case .success(let (peer, _)) = opened { peer.close() }  // cancelled while connecting
                    return
                }
                switch opened {
                case .success:
                    cancel()
                    completion(opened)
                case .failure(let failure):
                    let elapsed = Duration.nanoseconds(EventLoop.monotonicNanoseconds() &- started)
                    guard let delay = schedule.delay(after: failure, elapsed: elapsed) else {
                        cancel()
                        completion(.failure(failure))
                        return
                    }
                    onRetry?(failure, delay)
                    guard run == thisRun, isRunning else { return }  // cancelled by onRetry
                    wait(delay, then: attempt, orFail: completion)
                }
            }
        }
        if waitingFirst {
            wait(policy.initialDelay, then: attempt, orFail: completion)
        } else {
            attempt()
        }
    }

    /// Stops the run under way (its completion is not called) and closes the timer. Idempotent.
    public func cancel() {
        run += 1
        isRunning = false
        timer?.close()
        timer = nil
    }

    private func wait(_ delay: Duration, then attempt: @escaping () -> Void, orFail completion: Completion) {
        do throws(UVError) {
            if timer == nil { timer = try LoopTimer(loop: loop) }
            timer?.start(after: delay, attempt)
        } catch {
            cancel()
            completion(.failure(.unreachable(path: path, error)))
        }
    }
}

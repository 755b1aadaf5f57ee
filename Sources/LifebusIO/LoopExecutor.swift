import CLibUV
import Synchronization

/// The one way into an `EventLoop` from another thread: a weak path that enqueues work under a lock and wakes the
/// loop with `uv_async_send`. Sends coalesce; the async callback drains the whole queue, so every piece of work runs
/// on the loop's thread, in the order it was enqueued from any one thread.
///
/// Owns nothing of the loop: once the loop has begun `close()`, `execute` drops its work (releasing it on the
/// calling thread) instead of running it; it never touches freed memory.
public struct LoopExecutor: Sendable {
    let queue: ExecutorQueue

    /// Runs `work` on the loop's thread soon. Callable from any thread, including the loop's own.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        queue.enqueue(work)
    }

    /// Makes the loop's `run()` return after the iteration in which this request is seen.
    public func stopLoop() {
        queue.requestStop()
    }
}

/// The shared state behind `LoopExecutor`: retained by the loop's async handle (until its close callback) and by
/// every executor copy. All mutable state sits behind one `Mutex`, so it is genuinely `Sendable`.
final class ExecutorQueue: Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var stopRequested = false
        /// nil once the loop began closing: from then on work is dropped.
        var async: AsyncHandle?
    }

    /// The loop's async handle. `uv_async_send` is the one libuv call that is safe from any thread, and the
    /// pointer is cleared under the lock before the handle is closed.
    struct AsyncHandle: @unchecked Sendable {  // unchecked: only used for uv_async_send while the lock is held
        let pointer: UnsafeMutablePointer<uv_async_t>
    }

    private let state: Mutex<State>

    init(async: UnsafeMutablePointer<uv_async_t>) {
        state = Mutex(State(async: AsyncHandle(pointer: async)))
    }

    func enqueue(_ work: @escaping @Sendable () -> Void) {
        let dropped: (@Sendable () -> Void)? = state.withLock { state in
            guard let async = state.async else { return work }
            state.work.append(work)
            uv_async_send(async.pointer)
            return nil
        }
        _ = dropped  // released here, outside the lock
    }

    func requestStop() {
        state.withLock { state in
            guard let async = state.async else { return }
            state.stopRequested = true
            uv_async_send(async.pointer)
        }
    }

    /// Called on the loop thread when the loop starts closing.
    func detach() {
        let dropped = state.withLock { state in
            state.async = nil
            let work = state.work
            state.work = []
            return work
        }
        _ = dropped
    }

    /// The async callback: runs everything queued so far, then honours a stop request.
    static func asyncFired(_ handle: UnsafeMutablePointer<uv_async_t>) {
        // Unretained: the async handle holds the reference until its close callback.
        let queue = Unmanaged<ExecutorQueue>.fromOpaque(handle.pointee.data).takeUnretainedValue()
        let (batch, stop) = queue.state.withLock { state in
            let batch = state.work
            state.work = []
            defer { state.stopRequested = false }
            return (batch, state.stopRequested)
        }
        for work in batch {
            work()
        }
        if stop {
            uv_stop(handle.pointee.loop)
        }
    }
}

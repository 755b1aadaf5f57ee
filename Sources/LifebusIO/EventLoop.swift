import CLibUV
import Glibc

/// A libuv event loop: owns its `uv_loop_t`, the unreferenced `uv_async_t` behind `executor`, the `uv_idle_t` behind
/// `nextTurn` (active only while work waits for the next turn), and the one 64 KiB
/// read buffer every `Connection` of this loop reads into (reads are consumed synchronously in the read callback,
/// so idle connections hold no read buffer).
///
/// Bound to one thread: the thread that calls `run()`/`runOnce(wait:)` (before the first run, the thread that
/// created it). Every LifebusIO object created on this loop may be touched only on that thread; the one way in
/// from another thread is `executor`. Invariant: `close()` must succeed before the last reference goes away
/// (`deinit` asserts it), which requires every handle of the loop to be closed first.
///
/// Creating the first loop sets SIGPIPE to ignored for the process, so a write to a vanished peer becomes an
/// `EPIPE` error value instead of killing the process.
public final class EventLoop {
    static var readBufferSize: Int { 64 * 1024 }

    /// `loop.data` points at `readBuffer` (see `Connection`'s alloc callback).
    let loop: UnsafeMutablePointer<uv_loop_t>
    let readBuffer: UnsafeMutableRawPointer
    private let async: UnsafeMutablePointer<uv_async_t>
    private let queue: ExecutorQueue
    private let nextTurnQueue: NextTurnQueue
    private var ownerThread: pthread_t
    private var asyncClosed = false
    private(set) var isClosed = false
    /// The buffer lines are encoded into on this loop's thread (`Connection.writeLine(encoding:)`): one for every
    /// connection of the loop instead of one each. Taken out while a line is encoded and written, so a line encoded
    /// meanwhile (an encoder or a failed write that writes again) gets a buffer of its own.
    // Unchecked: only ever swapped out whole and put back whole; no access spans a call.
    @exclusivity(unchecked) private var lineBuffer: [UInt8] = []
    /// The most capacity the line buffer keeps between lines: a larger line (a `fire` answer that moved 1,000 apps
    /// is ~350 KB, but its records go out spliced) lets its buffer go.
    static let retainedLineCapacity = 64 * 1024

    private static let ignoreSIGPIPE: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    public init() throws(UVError) {
        _ = Self.ignoreSIGPIPE
        loop = uvAllocate(uv_loop_t.self)
        let status = uv_loop_init(loop)
        guard status == 0 else {
            uvFree(loop)
            throw UVError(code: status, function: "uv_loop_init")
        }
        async = uvAllocate(uv_async_t.self)
        let asyncStatus = uv_async_init(loop, async) { handle in ExecutorQueue.asyncFired(handle!) }
        guard asyncStatus == 0 else {
            uvFree(async)
            uv_loop_close(loop)
            uvFree(loop)
            throw UVError(code: asyncStatus, function: "uv_async_init")
        }
        do throws(UVError) {
            nextTurnQueue = try NextTurnQueue(loop: loop)
        } catch {
            uv_close(uvCast(async), nil)
            uv_run(loop, UV_RUN_NOWAIT)
            uv_loop_close(loop)
            uvFree(async)
            uvFree(loop)
            throw error
        }
        queue = ExecutorQueue(async: async)
        // Retained by the async handle until its close callback, which may run after this loop object is gone.
        async.pointee.data = Unmanaged.passRetained(queue).toOpaque()
        uv_unref(uvCast(async))
        readBuffer = UnsafeMutableRawPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
        loop.pointee.data = readBuffer
        ownerThread = pthread_self()
    }

    deinit {
        assert(isClosed, "EventLoop released without a successful close()")
    }

    /// Runs the loop on the calling thread until no referenced handle or request is left, or `stop()` is called.
    public func run() {
        ownerThread = pthread_self()
        uv_run(loop, UV_RUN_DEFAULT)
    }

    /// Runs one loop iteration on the calling thread: blocking for I/O when `wait` and something is alive,
    /// polling otherwise. Returns whether referenced handles or requests remain.
    @discardableResult
    public func runOnce(wait: Bool) -> Bool {
        ownerThread = pthread_self()
        return uv_run(loop, wait ? UV_RUN_ONCE : UV_RUN_NOWAIT) != 0
    }

    /// Makes `run()` return after the current iteration. Loop thread only; from elsewhere use `executor.stopLoop()`.
    public func stop() {
        preconditionInLoop()
        uv_stop(loop)
    }

    /// Runs `work` on this loop's thread at the start of the next loop turn, before polling for I/O (and without
    /// blocking in it). Work queued from such work waits for the turn after. Loop thread only; dropped on `close()`.
    public func nextTurn(_ work: @escaping () -> Void) {
        preconditionInLoop()
        nextTurnQueue.enqueue(work)
    }

    /// The thread-safe way to run work on this loop's thread.
    public var executor: LoopExecutor { LoopExecutor(queue: queue) }

    /// Traps unless called on the thread bound to this loop — in release builds too, as swift-nio's
    /// `preconditionInEventLoop` does: a loop-bound object touched from another thread is a data race on libuv's
    /// structures, worse than a trap. It costs a `pthread_self` and a compare (about 1 ns, `ARCHITECTURE.md`).
    /// The line buffer, emptied, lent to the caller until `keepLineBuffer(_:)`. On the loop's thread only.
    func takeLineBuffer() -> [UInt8] {
        preconditionInLoop()
        var line: [UInt8] = []
        swap(&line, &lineBuffer)
        line.removeAll(keepingCapacity: true)
        return line
    }

    /// Gives the line buffer back for the next line, unless it grew past `retainedLineCapacity`.
    func keepLineBuffer(_ line: [UInt8]) {
        if line.capacity <= Self.retainedLineCapacity { lineBuffer = line }
    }

    public func preconditionInLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(
            pthread_equal(ownerThread, pthread_self()) != 0, "not on the EventLoop's thread", file: file, line: line)
    }

    /// A monotonic clock in nanoseconds (`uv_hrtime`), readable from any thread.
    public static func monotonicNanoseconds() -> UInt64 {
        uv_hrtime()
    }
}

extension EventLoop {
    /// Closes the executor's async handle and the next-turn idle handle, runs the loop until pending close callbacks
    /// have run, and closes the `uv_loop_t`. Throws `EBUSY` naming the handles still open when some were never
    /// closed; the loop stays usable then (close them and call `close()` again). Idempotent once it succeeded.
    /// Executor and next-turn work not yet run is dropped. Call it on the loop's thread, outside `run()`.
    public func close() throws(UVError) {
        preconditionInLoop()
        if isClosed { return }
        if !asyncClosed {
            asyncClosed = true
            nextTurnQueue.close()
            queue.detach()
            uv_close(uvCast(async)) { handle in
                // Balances the passRetained in init.
                Unmanaged<ExecutorQueue>.fromOpaque(handle!.pointee.data).release()
                uvFree(handle!)
            }
        }
        for _ in 0..<64 where uv_loop_alive(loop) != 0 {
            uv_run(loop, UV_RUN_NOWAIT)
        }
        let status = uv_loop_close(loop)
        guard status == 0 else {
            let open = openHandleNames().joined(separator: ", ")
            throw UVError(code: status, function: "uv_loop_close (still open: \(open))")
        }
        isClosed = true
        uvFree(loop)
        readBuffer.deallocate()
    }

    /// The type names of the handles still registered with the loop, "(closing)" marked.
    private func openHandleNames() -> [String] {
        var names: [String] = []
        withUnsafeMutablePointer(to: &names) { namesPointer in
            uv_walk(loop, { handle, context in
                let handle = handle!
                var name = String(cString: uv_handle_type_name(handle.pointee.type))
                if uv_is_closing(handle) != 0 { name += " (closing)" }
                context!.assumingMemoryBound(to: [String].self).pointee.append(name)
            }, namesPointer)
        }
        return names
    }
}

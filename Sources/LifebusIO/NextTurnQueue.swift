import CLibUV

/// Work postponed to the next turn of one loop: owns a `uv_idle_t` (through its `UVHandle`) and the work queued on
/// it.
///
/// Bound to its loop's thread. Retained by its idle handle from creation until the close callback, the only
/// release. The handle is active exactly while work is queued (an active idle handle makes the loop poll without
/// blocking), so an empty queue costs nothing. Invariant: work queued while a turn's work runs waits for the next
/// turn, which is what makes a connection that re-queues itself take turns with the others (round-robin).
final class NextTurnQueue: UVHandleOwner {
    private let idle: UVHandle<uv_idle_t>
    private var work: [() -> Void] = []

    init(loop: UnsafeMutablePointer<uv_loop_t>) throws(UVError) {
        idle = try UVHandle("uv_idle_init") { uv_idle_init(loop, $0) }
        idle.adopt(self)
    }

    /// Queues `body` for the next turn. Dropped once the queue is closed.
    func enqueue(_ body: @escaping () -> Void) {
        guard !idle.isClosing else { return }
        if work.isEmpty {
            uv_idle_start(idle.pointer) { handle in NextTurnQueue.turn(handle!) }
        }
        work.append(body)
    }

    /// Drops the queued work and closes the handle. Idempotent.
    func close() {
        idle.close()
        work.removeAll()
    }

    static var closeCallback: uv_close_cb { { uvHandleClosed($0, as: NextTurnQueue.self) } }

    func handleDidClose() {}

    private static func turn(_ handle: UnsafeMutablePointer<uv_idle_t>) {
        let queue = uvOwner(of: handle, as: NextTurnQueue.self)
        let now = queue.work
        queue.work.removeAll(keepingCapacity: true)
        for body in now {
            body()
        }
        if queue.work.isEmpty, !queue.idle.isClosing {
            uv_idle_stop(handle)
        }
    }
}

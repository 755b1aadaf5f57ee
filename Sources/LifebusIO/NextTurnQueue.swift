import CLibUV

/// Work postponed to the next turn of one loop: owns a `uv_idle_t` and the work queued on it.
///
/// Bound to its loop's thread. Retained by its idle handle from creation until the close callback, the only
/// release. The handle is active exactly while work is queued (an active idle handle makes the loop poll without
/// blocking), so an empty queue costs nothing. Invariant: work queued while a turn's work runs waits for the next
/// turn, which is what makes a connection that re-queues itself take turns with the others (round-robin).
final class NextTurnQueue {
    private let idle: UnsafeMutablePointer<uv_idle_t>
    private var work: [() -> Void] = []
    private var closed = false

    init(loop: UnsafeMutablePointer<uv_loop_t>) throws(UVError) {
        idle = uvAllocate(uv_idle_t.self)
        let status = uv_idle_init(loop, idle)
        guard status == 0 else {
            uvFree(idle)
            throw UVError(code: status, function: "uv_idle_init")
        }
        // Retained by the handle until the close callback, the only release.
        idle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Queues `body` for the next turn. Dropped once the queue is closed.
    func enqueue(_ body: @escaping () -> Void) {
        guard !closed else { return }
        if work.isEmpty {
            uv_idle_start(idle) { handle in NextTurnQueue.turn(handle!) }
        }
        work.append(body)
    }

    /// Drops the queued work and closes the handle. Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        work.removeAll()
        uv_close(uvCast(idle)) { handle in
            // Balances the passRetained in init; the memory is freed after reading `data`.
            Unmanaged<NextTurnQueue>.fromOpaque(handle!.pointee.data).release()
            uvFree(handle!)
        }
    }

    private static func turn(_ handle: UnsafeMutablePointer<uv_idle_t>) {
        // Unretained: the handle holds the reference until the close callback.
        let queue = Unmanaged<NextTurnQueue>.fromOpaque(handle.pointee.data).takeUnretainedValue()
        let now = queue.work
        queue.work.removeAll(keepingCapacity: true)
        for body in now {
            body()
        }
        if queue.work.isEmpty, !queue.closed {
            uv_idle_stop(handle)
        }
    }
}

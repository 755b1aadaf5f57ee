import CLibUV

/// A one-shot or repeating timer: owns a `uv_timer_t` and the handler it calls.
///
/// Bound to its loop's thread. From `init` until the close callback the timer is retained by its handle, so it
/// keeps working (and keeps the loop alive while active) even if the caller drops it; `close()` is the only way
/// to end it. The handler is released in the close callback, which breaks any cycle through it.
public final class LoopTimer {
    private let loop: EventLoop
    private let handle: UnsafeMutablePointer<uv_timer_t>
    private var handler: (() -> Void)?
    private var closing = false

    public init(loop: EventLoop) throws(UVError) {
        loop.preconditionInLoop()
        self.loop = loop
        handle = uvAllocate(uv_timer_t.self)
        let status = uv_timer_init(loop.loop, handle)
        guard status == 0 else {
            uvFree(handle)
            throw UVError(code: status, function: "uv_timer_init")
        }
        // Retained by the handle until the close callback, the only release.
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    deinit {
        assert(closing, "LoopTimer released without close()")
    }

    /// (Re)arms the timer: `handler` runs after `after` (rounded up to whole milliseconds), then every `repeating`
    /// if given. Replaces any earlier schedule and handler. Ignored after `close()`.
    public func start(after: Duration, repeating: Duration? = nil, _ handler: @escaping () -> Void) {
        loop.preconditionInLoop()
        guard !closing else { return }
        self.handler = handler
        let repeatMilliseconds = repeating.map { max($0.uvMilliseconds, 1) } ?? 0
        let status = uv_timer_start(handle, { handle in LoopTimer.fired(handle!) }, after.uvMilliseconds,
                                    repeatMilliseconds)
        precondition(status == 0, "uv_timer_start failed on an open timer")
    }

    /// Disarms the timer; it may be started again.
    public func stop() {
        loop.preconditionInLoop()
        guard !closing else { return }
        uv_timer_stop(handle)
    }

    /// Disarms and closes the timer for good; the handler will not run again. Idempotent.
    public func close() {
        loop.preconditionInLoop()
        guard !closing else { return }
        closing = true
        uv_close(uvCast(handle)) { handle in
            // The one release, balancing passRetained in init; the memory is freed after reading `data`.
            let timer = Unmanaged<LoopTimer>.fromOpaque(handle!.pointee.data).takeRetainedValue()
            timer.handler = nil
            uvFree(handle!)
        }
    }

    /// Whether the timer is armed.
    public var isActive: Bool {
        !closing && uv_is_active(uvCast(handle)) != 0
    }

    /// Whether an armed timer keeps `EventLoop.run()` from returning (default true).
    public var keepsLoopAlive: Bool {
        get { !closing && uv_has_ref(uvCast(handle)) != 0 }
        set {
            guard !closing else { return }
            if newValue { uv_ref(uvCast(handle)) } else { uv_unref(uvCast(handle)) }
        }
    }

    private static func fired(_ handle: UnsafeMutablePointer<uv_timer_t>) {
        // Unretained: the handle holds the reference until the close callback.
        let timer = Unmanaged<LoopTimer>.fromOpaque(handle.pointee.data).takeUnretainedValue()
        timer.handler?()
    }
}

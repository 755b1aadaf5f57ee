import CLibUV

/// A one-shot or repeating timer: owns a `uv_timer_t` (through its `UVHandle`) and the handler it calls.
///
/// Bound to its loop's thread. From `init` until the close callback the timer is retained by its handle, so it
/// keeps working (and keeps the loop alive while active) even if the caller drops it; `close()` is the only way
/// to end it. The handler is released in the close callback, which breaks any cycle through it.
public final class LoopTimer: UVHandleOwner {
    private let loop: EventLoop
    private let handle: UVHandle<uv_timer_t>
    private var handler: (() -> Void)?

    public init(loop: EventLoop) throws(UVError) {
        loop.preconditionInLoop()
        self.loop = loop
        handle = try UVHandle("uv_timer_init") { uv_timer_init(loop.loop, $0) }
        handle.adopt(self)
    }

    /// (Re)arms the timer: `handler` runs after `after` (rounded up to whole milliseconds), then every `repeating`
    /// if given. Replaces any earlier schedule and handler. Ignored after `close()`.
    public func start(after: Duration, repeating: Duration? = nil, _ handler: @escaping () -> Void) {
        loop.preconditionInLoop()
        guard !handle.isClosing else { return }
        self.handler = handler
        arm(after: after, repeatMilliseconds: repeating.map { max($0.uvMilliseconds, 1) } ?? 0)
    }

    /// (Re)arms the timer to run the handler it was last started with, once, after `milliseconds`: for a caller that
    /// re-arms often (the broker's timers, per event), without making a closure each time, and with the delay in
    /// whole milliseconds at hand (a `Duration`'s are found by a 128-bit division, ~190 instructions). The timer must
    /// have been started before. Ignored after `close()`.
    public func restart(afterMilliseconds milliseconds: UInt64) {
        loop.preconditionInLoop()
        guard !handle.isClosing else { return }
        precondition(handler != nil, "LoopTimer.restart before any start")
        arm(afterMilliseconds: milliseconds, repeatMilliseconds: 0)
    }

    private func arm(after: Duration, repeatMilliseconds: UInt64) {
        arm(afterMilliseconds: after.uvMilliseconds, repeatMilliseconds: repeatMilliseconds)
    }

    private func arm(afterMilliseconds milliseconds: UInt64, repeatMilliseconds: UInt64) {
        let status = uv_timer_start(handle.pointer, { handle in LoopTimer.fired(handle!) }, milliseconds,
                                    repeatMilliseconds)
        precondition(status == 0, "uv_timer_start failed on an open timer")
    }

    /// Disarms the timer; it may be started again.
    public func stop() {
        loop.preconditionInLoop()
        guard !handle.isClosing else { return }
        uv_timer_stop(handle.pointer)
    }

    /// Disarms and closes the timer for good; the handler will not run again. Idempotent.
    public func close() {
        loop.preconditionInLoop()
        handle.close()
    }

    static var closeCallback: uv_close_cb { { uvHandleClosed($0, as: LoopTimer.self) } }

    func handleDidClose() {
        handler = nil
    }

    /// Whether the timer is armed.
    public var isActive: Bool {
        !handle.isClosing && uv_is_active(handle.base) != 0
    }

    /// Whether an armed timer keeps `EventLoop.run()` from returning (default true).
    public var keepsLoopAlive: Bool {
        get { handle.keepsLoopAlive }
        set { handle.keepsLoopAlive = newValue }
    }

    private static func fired(_ handle: UnsafeMutablePointer<uv_timer_t>) {
        uvOwner(of: handle, as: LoopTimer.self).handler?()
    }
}

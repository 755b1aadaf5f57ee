import CLibUV

/// Watches one process through its pidfd (a descriptor the caller owns and keeps open while watching) and calls its
/// handler once, on the loop's thread, when the process exits — whoever its parent is: the kernel makes a pidfd
/// readable at the exit, so this works for a process that is not the caller's child (e.g. the caller's parent). A
/// failed poll of the descriptor is taken as the exit too: the watch could not go on.
///
/// Owns a `uv_poll_t` (through its `UVHandle`), not the descriptor. Bound to its loop's thread; retained by its handle
/// from `init` until the close callback. Invariant: the handler runs at most once, and the watcher closes itself
/// before running it; `close()` before the exit means it never runs.
public final class ProcessExitWatcher: UVHandleOwner {
    private let loop: EventLoop
    private let handle: UVHandle<uv_poll_t>
    private var handler: (() -> Void)?

    public init(loop: EventLoop, processDescriptor: Int32, handler: @escaping () -> Void) throws(UVError) {
        loop.preconditionInLoop()
        self.loop = loop
        self.handler = handler
        handle = try UVHandle("uv_poll_init") { uv_poll_init(loop.loop, $0, processDescriptor) }
        handle.adopt(self)
        let startStatus = uv_poll_start(handle.pointer, Int32(UV_READABLE.rawValue)) { handle, _, _ in
            uvOwner(of: handle!, as: ProcessExitWatcher.self).exited()
        }
        guard startStatus == 0 else {
            close()
            throw UVError(code: startStatus, function: "uv_poll_start")
        }
    }

    /// Stops watching and closes the handle; the handler will not run. Idempotent.
    public func close() {
        loop.preconditionInLoop()
        handle.close()
    }

    /// Whether the watcher keeps `EventLoop.run()` from returning (default true).
    public var keepsLoopAlive: Bool {
        get { handle.keepsLoopAlive }
        set { handle.keepsLoopAlive = newValue }
    }

    private func exited() {
        let run = handler
        close()
        run?()
    }

    static var closeCallback: uv_close_cb { { uvHandleClosed($0, as: ProcessExitWatcher.self) } }

    func handleDidClose() {
        handler = nil
    }
}

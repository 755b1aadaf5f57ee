import CLibUV
import Glibc

/// Watches one POSIX signal on a loop: owns a `uv_signal_t` (through its `UVHandle`) and the handler it calls on
/// the loop's thread.
///
/// Bound to its loop's thread; retained by its handle from `init` until the close callback (`close()` ends it).
/// SIGCHLD only with `besideLibuv` (libuv watches it too, for the children it spawned, and every watcher of a signal
/// hears it): the child subreaper's `OrphanReaper`. A program should have one owner per signal.
public final class SignalWatcher: UVHandleOwner {
    private let loop: EventLoop
    private let handle: UVHandle<uv_signal_t>
    private var handler: ((Int32) -> Void)?

    public init(
        loop: EventLoop, signal: Int32, besideLibuv: Bool = false, handler: @escaping (Int32) -> Void
    ) throws(UVError) {
        precondition(signal != SIGCHLD || besideLibuv, "SIGCHLD belongs to libuv")
        loop.preconditionInLoop()
        self.loop = loop
        self.handler = handler
        handle = try UVHandle("uv_signal_init") { uv_signal_init(loop.loop, $0) }
        handle.adopt(self)
        let startStatus = uv_signal_start(handle.pointer, { handle, signal in
            uvOwner(of: handle!, as: SignalWatcher.self).handler?(signal)
        }, signal)
        guard startStatus == 0 else {
            close()
            throw UVError(code: startStatus, function: "uv_signal_start")
        }
    }

    /// Stops watching and closes the handle; the handler will not run again. Idempotent.
    public func close() {
        loop.preconditionInLoop()
        handle.close()
    }

    static var closeCallback: uv_close_cb { { uvHandleClosed($0, as: SignalWatcher.self) } }

    func handleDidClose() {
        handler = nil
    }

    /// Whether the watcher keeps `EventLoop.run()` from returning (default true).
    public var keepsLoopAlive: Bool {
        get { handle.keepsLoopAlive }
        set { handle.keepsLoopAlive = newValue }
    }
}

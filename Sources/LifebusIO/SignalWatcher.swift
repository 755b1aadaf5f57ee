import CLibUV
import Glibc

/// Watches one POSIX signal on a loop: owns a `uv_signal_t` and the handler it calls on the loop's thread.
///
/// Bound to its loop's thread; retained by its handle from `init` until the close callback (`close()` ends it).
/// Never for SIGCHLD: libuv uses it for child-process exits. A program should have one owner per signal.
public final class SignalWatcher {
    private let loop: EventLoop
    private let handle: UnsafeMutablePointer<uv_signal_t>
    private var handler: ((Int32) -> Void)?
    private var closing = false

    public init(loop: EventLoop, signal: Int32, handler: @escaping (Int32) -> Void) throws(UVError) {
        precondition(signal != SIGCHLD, "SIGCHLD belongs to libuv")
        loop.preconditionInLoop()
        self.loop = loop
        self.handler = handler
        handle = uvAllocate(uv_signal_t.self)
        let status = uv_signal_init(loop.loop, handle)
        guard status == 0 else {
            uvFree(handle)
            throw UVError(code: status, function: "uv_signal_init")
        }
        // Retained by the handle until the close callback, the only release.
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let startStatus = uv_signal_start(handle, { handle, signal in SignalWatcher.received(handle!, signal) }, signal)
        guard startStatus == 0 else {
            close()
            throw UVError(code: startStatus, function: "uv_signal_start")
        }
    }

    deinit {
        assert(closing, "SignalWatcher released without close()")
    }

    /// Stops watching and closes the handle; the handler will not run again. Idempotent.
    public func close() {
        loop.preconditionInLoop()
        guard !closing else { return }
        closing = true
        uv_close(uvCast(handle)) { handle in
            // The one release, balancing passRetained in init; the memory is freed after reading `data`.
            let watcher = Unmanaged<SignalWatcher>.fromOpaque(handle!.pointee.data).takeRetainedValue()
            watcher.handler = nil
            uvFree(handle!)
        }
    }

    /// Whether the watcher keeps `EventLoop.run()` from returning (default true).
    public var keepsLoopAlive: Bool {
        get { !closing && uv_has_ref(uvCast(handle)) != 0 }
        set {
            guard !closing else { return }
            if newValue { uv_ref(uvCast(handle)) } else { uv_unref(uvCast(handle)) }
        }
    }

    private static func received(_ handle: UnsafeMutablePointer<uv_signal_t>, _ signal: Int32) {
        // Unretained: the handle holds the reference until the close callback.
        let watcher = Unmanaged<SignalWatcher>.fromOpaque(handle.pointee.data).takeUnretainedValue()
        watcher.handler?(signal)
    }
}

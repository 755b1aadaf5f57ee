import Glibc

/// Starts a detached pthread running one closure — typically a thread that runs an `EventLoop` (the SDK's I/O
/// thread, a test's stand-in broker). Stateless.
public enum DetachedThread {
    /// Owns the closure while it crosses into the new thread.
    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread; traps when the system cannot create one.
    public static func start(_ body: @escaping @Sendable () -> Void) {
        // Retained for the new thread, which takes it back exactly once.
        let context = Unmanaged.passRetained(Start(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            preconditionFailure("cannot start a thread (pthread_create: \(status))")
        }
        pthread_detach(thread)
    }
}

import Glibc

/// Starts the SDK's I/O thread: a detached pthread running one closure (the event loop). Stateless.
enum LoopThread {
    /// Owns the closure while it crosses into the new thread.
    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        // Retained for the new thread, which takes it back exactly once.
        let context = Unmanaged.passRetained(Start(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            preconditionFailure("the Lifebus SDK cannot start its I/O thread (pthread_create: \(status))")
        }
        pthread_detach(thread)
    }
}

/// A value that can be rebuilt, dropped on every memory warning and built again on next use: the view-controller
/// pattern of iOS (release the view and cached data in `didReceiveMemoryWarning`, load them again when needed).
///
/// Owns the value (while loaded) and the closure that builds it; observes its `Application`'s memory warnings from
/// `init` until it is deallocated. Bound to the main actor. Invariant: `value` always answers a value, built at most
/// once between two memory warnings (or `purge()` calls).
@MainActor
public final class Purgeable<Value> {
    private let build: @MainActor () -> Value
    private var stored: Value?
    private weak var application: Application?
    private var token: ObserverToken?

    /// Observes `application`'s memory warnings; builds lazily with `build`.
    ///
    /// - Parameters:
    ///   - application: The app whose memory warnings drop the value.
    ///   - build: Builds the value, on first use and again after each drop.
    public init(in application: Application, build: @escaping @MainActor () -> Value) {
        self.build = build
        self.application = application
        token = application.addMemoryWarningObserver { [weak self] in self?.purge() }
    }

    isolated deinit {
        if let token { application?.removeObserver(token) }
    }

    /// The value, built now if it is not loaded.
    public var value: Value {
        if let stored { return stored }
        let built = build()
        stored = built
        return built
    }

    /// Whether the value is built and held.
    public var isLoaded: Bool { stored != nil }

    /// Drops the value (a memory warning does this); the next `value` builds it again.
    public func purge() {
        stored = nil
    }
}

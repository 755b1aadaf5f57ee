/// Which role may call which method on the broker (the table of "Method table" in `Protocol/README.md`).
///
/// Pure and stateless. Only requests a peer sends TO the broker are listed; methods the broker sends (callbacks,
/// `transition`, `backgroundTaskExpiring`, `lifebus.error`) are not served by it and count as unknown.
public enum MethodPolicy {
    /// The roles that may call each method the broker serves. `hello` is open to every role (its own rules
    /// decide the rest).
    public static let roles: [String: Set<PeerRole>] = [
        LifebusMethod.hello: [.app, .controller, .observer],
        LifebusMethod.ping: [.app, .controller, .observer],
        LifebusMethod.mark: [.app],
        LifebusMethod.beginBackgroundTask: [.app],
        LifebusMethod.endBackgroundTask: [.app],
        LifebusMethod.reportMemory: [.app],
        LifebusMethod.fire: [.controller],
        LifebusMethod.reset: [.controller],
        LifebusMethod.status: [.controller, .observer],
        LifebusMethod.wait: [.controller, .observer],
        LifebusMethod.history: [.controller, .observer],
        LifebusMethod.advance: [.controller],
        LifebusMethod.clock: [.controller, .observer],
        LifebusMethod.install: [.controller],
        LifebusMethod.uninstall: [.controller],
        LifebusMethod.apps: [.controller, .observer],
        LifebusMethod.saveRestorationState: [.app],
    ]

    /// `nil` when the broker serves no such method (answer -32601 `jsonrpc.MethodNotFound`); `false` when it does
    /// but not for `role` (answer -32003 `lifebus.NotAllowedForRole`); `true` when `role` may call it.
    public static func allowed(_ method: String, for role: PeerRole) -> Bool? {
        roles[method].map { $0.contains(role) }
    }
}

/// Which role may call which method on the broker (the table of "Method table" in `Protocol/README.md`).
///
/// Pure and stateless. Only requests a peer sends TO the broker are listed (`ServedMethod`); methods the broker
/// sends (callbacks, `transition`, `backgroundTaskExpiring`, `lifebus.error`) are not served by it and count as
/// unknown.
public enum MethodPolicy {
    /// The roles that may call each method the broker serves. `hello` is open to every role (its own rules
    /// decide the rest).
    public static let roles: [String: Set<PeerRole>] = Dictionary(uniqueKeysWithValues: ServedMethod.allCases.map {
        method in (method.name, Set(PeerRole.allCases.filter { roles(of: method) & bit($0) != 0 }))
    })

    /// `nil` when the broker serves no such method (answer -32601 `jsonrpc.MethodNotFound`); `false` when it does
    /// but not for `role` (answer -32003 `lifebus.NotAllowedForRole`); `true` when `role` may call it. Once per
    /// request: the name is found by its bytes (`ServedMethod(named:)`), not compared with each served name.
    public static func allowed(_ method: String, for role: PeerRole) -> Bool? {
        ServedMethod(named: method).map { allowed($0, for: role) }
    }

    /// Whether `role` may call `method`.
    public static func allowed(_ method: ServedMethod, for role: PeerRole) -> Bool {
        roles(of: method) & bit(role) != 0
    }

    private static var app: UInt8 { bit(.app) }
    private static var controller: UInt8 { bit(.controller) }
    private static var observer: UInt8 { bit(.observer) }
    private static var everyone: UInt8 { app | controller | observer }

    /// The roles that may call each method (one bit per role).
    private static func roles(of method: ServedMethod) -> UInt8 {
        switch method {
        case .ping: everyone
        case .mark: app
        case .reportMemory: app
        case .fire: controller
        case .wait: controller | observer
        case .status: controller | observer
        case .history: controller | observer
        case .beginBackgroundTask: app
        case .endBackgroundTask: app
        case .hello: everyone
        case .reset: controller
        case .advance: controller
        case .clock: controller | observer
        case .install: controller
        case .uninstall: controller
        case .apps: controller | observer
        case .saveRestorationState: app
        case .registerBackgroundTask, .submitBackgroundTask, .setTaskCompleted: app
        case .protectedData: controller | observer
        }
    }

    private static func bit(_ role: PeerRole) -> UInt8 {
        switch role {
        case .app: 1
        case .controller: 2
        case .observer: 4
        }
    }
}

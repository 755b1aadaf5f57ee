@_spi(RawJSON) import LifebusJSON

/// Which role may call which method on the broker (the table of "Method table" in `Protocol/README.md`).
///
/// Pure and stateless. Only requests a peer sends TO the broker are listed; methods the broker sends (callbacks,
/// `transition`, `backgroundTaskExpiring`, `lifebus.error`) are not served by it and count as unknown.
public enum MethodPolicy {
    /// The roles that may call each method the broker serves. `hello` is open to every role (its own rules
    /// decide the rest).
    public static let roles: [String: Set<PeerRole>] = Dictionary(uniqueKeysWithValues: table.map { entry in
        (entry.method, Set(PeerRole.allCases.filter { entry.roles & bit($0) != 0 }))
    })

    /// `nil` when the broker serves no such method (answer -32601 `jsonrpc.MethodNotFound`); `false` when it does
    /// but not for `role` (answer -32003 `lifebus.NotAllowedForRole`); `true` when `role` may call it.
    public static func allowed(_ method: String, for role: PeerRole) -> Bool? {
        // A scan, not a lookup in `roles`: comparing short names costs less than hashing one (once per request).
        for entry in table where entry.method == method {
            return entry.roles & bit(role) != 0
        }
        return nil
    }

    /// The served method whose name `bytes` spell, as its constant: the decoder's method name without making (and
    /// validating) a new `String`; `nil` for any other name.
    static func servedName(spelledBy bytes: UnsafeRawBufferPointer) -> String? {
        for entry in spellings where entry.bytes.count == bytes.count {
            if entry.bytes.withUnsafeBytes({ ByteScan.same($0, bytes) }) { return entry.method }
        }
        return nil
    }

    /// The served methods' names as bytes, in `table`'s order (compared a word at a time).
    private static let spellings: [(method: String, bytes: [UInt8])] = table.map { ($0.method, Array($0.method.utf8)) }

    private static let app = bit(.app), controller = bit(.controller), observer = bit(.observer)
    private static let everyone = app | controller | observer

    /// The methods and their roles (one bit per role), the ones called most first.
    private static let table: [(method: String, roles: UInt8)] = [
        (LifebusMethod.ping, everyone),
        (LifebusMethod.mark, app),
        (LifebusMethod.reportMemory, app),
        (LifebusMethod.fire, controller),
        (LifebusMethod.wait, controller | observer),
        (LifebusMethod.status, controller | observer),
        (LifebusMethod.history, controller | observer),
        (LifebusMethod.beginBackgroundTask, app),
        (LifebusMethod.endBackgroundTask, app),
        (LifebusMethod.hello, everyone),
        (LifebusMethod.reset, controller),
        (LifebusMethod.advance, controller),
        (LifebusMethod.clock, controller | observer),
        (LifebusMethod.install, controller),
        (LifebusMethod.uninstall, controller),
        (LifebusMethod.apps, controller | observer),
        (LifebusMethod.saveRestorationState, app),
    ]

    private static func bit(_ role: PeerRole) -> UInt8 {
        switch role {
        case .app: 1
        case .controller: 2
        case .observer: 4
        }
    }
}

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
    /// validating) a new `String`; `nil` for any other name. By length, then against each name of that length
    /// (`MethodPolicyTests` checks every name of `table` is found, and no near miss): no table walked, nothing
    /// retained, the names compared a word at a time.
    static func servedName(spelledBy bytes: UnsafeRawBufferPointer) -> String? {
        switch bytes.count {
        case 4:
            if spelled(bytes, "ping") { return LifebusMethod.ping }
            if spelled(bytes, "fire") { return LifebusMethod.fire }
            if spelled(bytes, "mark") { return LifebusMethod.mark }
            if spelled(bytes, "wait") { return LifebusMethod.wait }
            if spelled(bytes, "apps") { return LifebusMethod.apps }
        case 5:
            if spelled(bytes, "hello") { return LifebusMethod.hello }
            if spelled(bytes, "reset") { return LifebusMethod.reset }
            if spelled(bytes, "clock") { return LifebusMethod.clock }
        case 6:
            if spelled(bytes, "status") { return LifebusMethod.status }
        case 7:
            if spelled(bytes, "history") { return LifebusMethod.history }
            if spelled(bytes, "advance") { return LifebusMethod.advance }
            if spelled(bytes, "install") { return LifebusMethod.install }
        case 9:
            if spelled(bytes, "uninstall") { return LifebusMethod.uninstall }
        case 12:
            if spelled(bytes, "reportMemory") { return LifebusMethod.reportMemory }
        case 17:
            if spelled(bytes, "endBackgroundTask") { return LifebusMethod.endBackgroundTask }
        case 19:
            if spelled(bytes, "beginBackgroundTask") { return LifebusMethod.beginBackgroundTask }
        case 20:
            if spelled(bytes, "saveRestorationState") { return LifebusMethod.saveRestorationState }
        default:
            break
        }
        return nil
    }

    /// Whether `bytes` (as long as `name`: the caller's case) are `name`'s: eight bytes at a time, then four, then
    /// one.
    @inline(__always)
    private static func spelled(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        let expected = UnsafeRawPointer(name.utf8Start)
        var offset = 0
        while count &- offset >= 8 {
            guard bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset &+= 8
        }
        if count &- offset >= 4 {
            guard bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                == expected.loadUnaligned(fromByteOffset: offset, as: UInt32.self) else { return false }
            offset &+= 4
        }
        while offset < count {
            guard bytes.load(fromByteOffset: offset, as: UInt8.self)
                == expected.load(fromByteOffset: offset, as: UInt8.self) else { return false }
            offset &+= 1
        }
        return true
    }

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

/// Where the broker's Unix socket lives. Pure: the caller passes the environment and uid in.
///
/// Order (the first non-empty wins): an explicit path (`--socket`), `$LIFEBUS_SOCKET`,
/// `$XDG_RUNTIME_DIR/lifebus.sock`, `/tmp/lifebus-<uid>/lifebus.sock` — in the private folder
/// `privateDirectory(environment:uid:)` (`$TMPDIR` instead of `/tmp` when set), which the broker creates with
/// mode 0700 and refuses to use when another user owns it, it is a symlink, or it is open to others.
public enum BrokerSocketPath {
    public static let environmentVariable = "LIFEBUS_SOCKET"
    public static let runtimeDirectoryVariable = "XDG_RUNTIME_DIR"
    public static let socketFileName = "lifebus.sock"
    /// Every variable `resolve` reads.
    public static let environmentVariables = [environmentVariable, runtimeDirectoryVariable, "TMPDIR"]

    public static func resolve(explicit: String?, environment: [String: String], uid: UInt32) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        if let runtime = environment[runtimeDirectoryVariable], !runtime.isEmpty {
            return runtime.hasSuffix("/") ? runtime + socketFileName : runtime + "/" + socketFileName
        }
        return privateDirectory(environment: environment, uid: uid) + "/" + socketFileName
    }

    /// The folder of this user's own in the shared temporary folder: `${TMPDIR:-/tmp}/lifebus-<uid>`.
    public static func privateDirectory(environment: [String: String], uid: UInt32) -> String {
        var temporary = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while temporary.count > 1, temporary.hasSuffix("/") { temporary.removeLast() }
        return (temporary == "/" ? "" : temporary) + "/lifebus-\(uid)"
    }
}

/// Where the broker's Unix socket lives. Pure: the caller passes the environment and uid in.
///
/// Order (the first non-empty wins): an explicit path (`--socket`), `$LIFEBUS_SOCKET`,
/// `$XDG_RUNTIME_DIR/lifebus.sock`, `/tmp/lifebus-<uid>.sock`.
public enum BrokerSocketPath {
    public static let environmentVariable = "LIFEBUS_SOCKET"
    public static let runtimeDirectoryVariable = "XDG_RUNTIME_DIR"
    public static let socketFileName = "lifebus.sock"

    public static func resolve(explicit: String?, environment: [String: String], uid: UInt32) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        if let runtime = environment[runtimeDirectoryVariable], !runtime.isEmpty {
            return runtime.hasSuffix("/") ? runtime + socketFileName : runtime + "/" + socketFileName
        }
        return "/tmp/lifebus-\(uid).sock"
    }
}

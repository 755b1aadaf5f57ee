public import LifebusJSON
public import LifebusLifecycle

/// The params of `hello`, the first request on every connection: who the peer says it is.
///
/// A plain value (`Sendable`). Invariant enforced by `init(json:)`: `appID` is present exactly when
/// `role == .app`, and is 1…255 characters from `A–Z a–z 0–9 . _ -` (reverse-DNS style, safe in logs and paths).
/// Wire form:
/// `{"role":"app","protocolVersion":1,"app":{"id":"com.example.x","exitsOnSuspend":false,"backgroundModes":["audio"],
/// "launchInBackground":false},"client":"lifebus-cli/0.1"}` — `app` only for apps, `client` optional, `token` (the
/// content of the broker's `SOCKET.token` file) required from a loopback TCP peer and ignored on the Unix socket.
/// The peer's pid/uid/gid never come from here: the broker reads them from the kernel (`SO_PEERCRED`).
public struct HelloParams: Sendable, Equatable {
    public var role: PeerRole
    public var protocolVersion: Int
    /// Required iff `role == .app`.
    public var appID: String?
    /// Meaningful only for apps; `AppFlags()` otherwise.
    public var flags: AppFlags
    /// Free-form client software name, e.g. `lifebus-cli/0.1`.
    public var clientName: String?
    /// The secret a TCP peer presents (the broker's token file); `nil` on the Unix socket.
    public var token: String?

    public init(
        role: PeerRole,
        protocolVersion: Int = ProtocolVersion.current,
        appID: String? = nil,
        flags: AppFlags = AppFlags(),
        clientName: String? = nil,
        token: String? = nil
    ) {
        self.role = role
        self.protocolVersion = protocolVersion
        self.appID = appID
        self.flags = flags
        self.clientName = clientName
        self.token = token
    }

    /// The longest accepted app id, in bytes.
    public static let maxAppIDLength = 255

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        role = try PeerRole(json: try reader.required("role"), field: "role")
        let version = try reader.integer("protocolVersion", as: Int.self)
        guard version >= 1 else { throw RPCError.invalidParams(field: "protocolVersion", "must be at least 1") }
        protocolVersion = version
        clientName = try reader.optionalString("client")
        token = try reader.optionalString("token")
        if role == .app {
            let app = try reader.nested("app")
            let id = try app.string("id")
            guard Self.isValidAppID(id) else {
                throw RPCError.invalidParams(
                    field: "app.id",
                    "must be 1…\(Self.maxAppIDLength) characters from A-Z a-z 0-9 . _ -"
                )
            }
            appID = id
            flags = try AppFlags(reader: app)
        } else {
            guard reader.optional("app") == nil else {
                throw RPCError.invalidParams(field: "app", "is only allowed for role app")
            }
            appID = nil
            flags = AppFlags()
        }
    }

    public var json: JSONValue {
        var object: JSONObject = ["role": .string(role.rawValue), "protocolVersion": .integer(Int64(protocolVersion))]
        if role == .app {
            var app: JSONObject = ["id": appID.map(JSONValue.string) ?? .null]
            for (key, value) in flags.members { app.append(key, value) }
            object.append("app", .object(app))
        }
        if let clientName { object.append("client", .string(clientName)) }
        if let token { object.append("token", .string(token)) }
        return .object(object)
    }

    /// True when `id` is a well-formed app id (see the type's invariant).
    public static func isValidAppID(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard !utf8.isEmpty, utf8.count <= maxAppIDLength else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }
}

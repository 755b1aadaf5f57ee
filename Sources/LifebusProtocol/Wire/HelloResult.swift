public import LifebusJSON
public import LifebusLifecycle

/// A peer's identity as the kernel reports it (`SO_PEERCRED` on the accepted socket), never as the peer claims.
/// A plain value (`Sendable`). Wire form: `{"pid":1234,"uid":1000,"gid":1000}`.
public struct PeerIdentity: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        pid = try reader.integer("pid", as: Int32.self)
        uid = try reader.integer("uid", as: UInt32.self)
        gid = try reader.integer("gid", as: UInt32.self)
    }

    public var json: JSONValue {
        ["pid": .integer(Int64(pid)), "uid": .integer(Int64(uid)), "gid": .integer(Int64(gid))]
    }
}

/// The result of `hello`: what the broker is and what it made of the peer.
///
/// A plain value (`Sendable`). Wire form:
/// `{"brokerVersion":"0.1.0","protocolVersion":1,"role":"app","peer":{"pid":1234,"uid":1000,"gid":1000},
/// "profile":"ios7"}` — `profile` is the device model the broker plays (its behaviour and budgets).
public struct HelloResult: Sendable, Equatable {
    public var brokerVersion: String
    public var protocolVersion: Int
    public var role: PeerRole
    public var peer: PeerIdentity
    public var profile: Profile

    public init(
        brokerVersion: String = LifebusVersion.current,
        protocolVersion: Int = ProtocolVersion.current,
        role: PeerRole,
        peer: PeerIdentity,
        profile: Profile
    ) {
        self.brokerVersion = brokerVersion
        self.protocolVersion = protocolVersion
        self.role = role
        self.peer = peer
        self.profile = profile
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        brokerVersion = try reader.string("brokerVersion")
        protocolVersion = try reader.integer("protocolVersion", as: Int.self)
        role = try PeerRole(json: try reader.required("role"), field: "role")
        peer = try PeerIdentity(reader: try reader.nested("peer"))
        profile = try reader.choice("profile", as: Profile.self)
    }

    public var json: JSONValue {
        [
            "brokerVersion": .string(brokerVersion),
            "protocolVersion": .integer(Int64(protocolVersion)),
            "role": .string(role.rawValue),
            "peer": peer.json,
            "profile": .string(profile.rawValue),
        ]
    }
}

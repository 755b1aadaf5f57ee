public import LifebusJSON
public import LifebusLifecycle

/// The result of `status`: the simulated device and its apps.
///
/// A plain value (`Sendable`). Wire form:
/// `{"profile":"ios7","locked":false,"call":"none","alert":null,"foreground":"com.example.x","apps":[AppStatus…]}`
/// — `profile` the device model; `locked` whether the device sleeps (locked screen); `call` the phone
/// call's state; `alert` the alert on screen (`null` for none); `foreground` the id of the app in the foreground
/// (`null` for the home screen); `apps` every app the broker knows, or just the one asked for; `pressure`, only
/// when the broker measures memory pressure, its last level; `protectedDataAvailable`, only while it is `false`: the
/// device's protected data is unavailable.
public struct StatusResult: Sendable, Equatable {
    public var profile: Profile
    public var locked: Bool
    public var call: CallStatus
    public var alert: AlertKind?
    public var foreground: String?
    public var apps: [AppStatus]
    /// The memory pressure level the broker measured last (`normal`, `warning`, `critical`); `nil` (and not
    /// written) when it measures none (`lifebusd --device-memory`).
    public var pressure: MemoryPressure?
    /// Whether the device's protected data is available (§10.2); written only when `false`, so a device without
    /// data protection, or unlocked, reports as before.
    public var protectedDataAvailable: Bool

    public init(
        profile: Profile,
        locked: Bool,
        call: CallStatus,
        alert: AlertKind?,
        foreground: String?,
        apps: [AppStatus],
        pressure: MemoryPressure? = nil,
        protectedDataAvailable: Bool = true
    ) {
        self.profile = profile
        self.locked = locked
        self.call = call
        self.alert = alert
        self.foreground = foreground
        self.apps = apps
        self.pressure = pressure
        self.protectedDataAvailable = protectedDataAvailable
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        profile = try reader.choice("profile", as: Profile.self)
        locked = try reader.bool("locked", default: false)
        call = try reader.choice("call", as: CallStatus.self)
        alert = try reader.optionalChoice("alert", as: AlertKind.self)
        foreground = try reader.optionalString("foreground")
        apps = try reader.array("apps") { value, path throws(RPCError) in
            try AppStatus(reader: try ParamsReader(value, path: path))
        }
        pressure = try reader.optionalChoice("pressure", as: MemoryPressure.self)
        protectedDataAvailable = try reader.bool("protectedDataAvailable", default: true)
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "profile": .string(profile.rawValue),
            "locked": .bool(locked),
            "call": .string(call.rawValue),
            "alert": .optional(alert) { .string($0.rawValue) },
            "foreground": .optional(foreground, JSONValue.string),
            "apps": .array(apps.map(\.json)),
        ]
        if let pressure { object.append("pressure", .string(pressure.rawValue)) }
        if !protectedDataAvailable { object.append("protectedDataAvailable", .bool(false)) }
        return .object(object)
    }
}

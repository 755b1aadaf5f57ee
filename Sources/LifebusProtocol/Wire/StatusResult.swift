public import LifebusLifecycle

/// The result of `status`: the simulated device and its apps.
///
/// A plain value (`Sendable`). Wire form:
/// `{"profile":"ios7","locked":false,"call":"none","alert":null,"foreground":"com.example.x","apps":[AppStatus…]}`
/// — `profile` names the timing profile; `locked` whether the device sleeps (locked screen); `call` the phone
/// call's state; `alert` the alert on screen (`null` for none); `foreground` the id of the app in the foreground
/// (`null` for the home screen); `apps` every app the broker knows, or just the one asked for.
public struct StatusResult: Sendable, Equatable {
    public var profile: String
    public var locked: Bool
    public var call: CallStatus
    public var alert: AlertKind?
    public var foreground: String?
    public var apps: [AppStatus]

    public init(
        profile: String,
        locked: Bool,
        call: CallStatus,
        alert: AlertKind?,
        foreground: String?,
        apps: [AppStatus]
    ) {
        self.profile = profile
        self.locked = locked
        self.call = call
        self.alert = alert
        self.foreground = foreground
        self.apps = apps
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        profile = try reader.string("profile")
        locked = try reader.bool("locked", default: false)
        call = try reader.choice("call", as: CallStatus.self)
        alert = try reader.optionalChoice("alert", as: AlertKind.self)
        foreground = try reader.optionalString("foreground")
        apps = try reader.array("apps") { value, path throws(RPCError) in
            try AppStatus(reader: try ParamsReader(value, path: path))
        }
    }

    public var json: JSONValue {
        [
            "profile": .string(profile),
            "locked": .bool(locked),
            "call": .string(call.rawValue),
            "alert": .optional(alert) { .string($0.rawValue) },
            "foreground": .optional(foreground, JSONValue.string),
            "apps": .array(apps.map(\.json)),
        ]
    }
}

/// How an app wants the lifecycle to treat it (the Info.plist keys iOS reads), declared in `hello`.
///
/// A plain value (`Sendable`). On the wire the flags sit in the `app` object of `hello` beside the app id:
/// `{"exitsOnSuspend":false,"backgroundModes":["audio"],"launchInBackground":false}`; each member is optional and
/// defaults to `false` / `[]`. Background mode names are passed through unchecked (the core decides what they mean).
public struct AppFlags: Sendable, Equatable {
    /// `UIApplicationExitsOnSuspend`: the app is terminated instead of suspended.
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes`: e.g. `audio`, `location`, `voip`, `fetch`, `processing`.
    public var backgroundModes: [String]
    /// The app may be launched straight into the background.
    public var launchInBackground: Bool

    /// The `UIBackgroundModes` values iOS knows: what the command lines (`lifebus subscribe`, the SDK's
    /// `LaunchArguments`) accept. The wire passes any name through.
    public static let knownBackgroundModes = [
        "audio", "location", "voip", "fetch", "remote-notification", "newsstand-content", "external-accessory",
        "bluetooth-central", "bluetooth-peripheral", "processing",
    ]

    public init(exitsOnSuspend: Bool = false, backgroundModes: [String] = [], launchInBackground: Bool = false) {
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.launchInBackground = launchInBackground
    }

    /// Reads the flags from an object; -32602 naming the field on a wrong member. Other members are ignored.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        exitsOnSuspend = try reader.bool("exitsOnSuspend", default: false)
        backgroundModes = try reader.stringArray("backgroundModes")
        launchInBackground = try reader.bool("launchInBackground", default: false)
    }

    public var json: JSONValue {
        .object(JSONObject(members))
    }

    var members: [(String, JSONValue)] {
        [
            ("exitsOnSuspend", .bool(exitsOnSuspend)),
            ("backgroundModes", .array(backgroundModes.map(JSONValue.string))),
            ("launchInBackground", .bool(launchInBackground)),
        ]
    }
}

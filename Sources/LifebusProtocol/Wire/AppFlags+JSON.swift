public import LifebusJSON
public import LifebusLifecycle

/// The wire form of `AppFlags`: on the wire the flags sit in the `app` object of `hello` beside the app id:
/// `{"exitsOnSuspend":false,"backgroundModes":["audio"],"launchInBackground":false}`; each member is optional and
/// defaults to `false` / `[]`. Background mode names are passed through unchecked (the core decides what they mean).
extension AppFlags {
    /// Reads the flags from an object; -32602 naming the field on a wrong member. Other members are ignored.
    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(reader: ParamsReader) throws(RPCError) {
        self.init(
            exitsOnSuspend: try reader.bool("exitsOnSuspend", default: false),
            backgroundModes: try reader.stringArray("backgroundModes"),
            launchInBackground: try reader.bool("launchInBackground", default: false)
        )
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

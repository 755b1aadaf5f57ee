public import LifebusJSON
public import LifebusLifecycle

/// The wire form of `AppFlags`: on the wire the flags sit in the `app` object of `hello` beside the app id:
/// `{"exitsOnSuspend":false,"backgroundModes":["audio"],"launchInBackground":false}`, and for an app that adopts
/// scenes `"scenes":true`, `"multipleScenes":true` and `"implements":["sceneDidEnterBackground",…]`; each member is
/// optional and defaults to `false` / `[]`. Background mode names are passed through unchecked (the core decides what
/// they mean); `implements` names callbacks (`LifecycleCallback`), anything else is -32602 naming it. The scene
/// members are written only when they differ from their defaults, so an app without scenes says hello as before;
/// so is `permittedTaskIdentifiers` (`BGTaskSchedulerPermittedIdentifiers`, task identifiers, §10.2).
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
        adoptsScenes = try reader.bool("scenes", default: false)
        supportsMultipleScenes = try reader.bool("multipleScenes", default: false)
        var callbacks: [LifecycleCallback] = []
        for (index, name) in try reader.stringArray("implements").enumerated() {
            guard let callback = LifecycleCallback(rawValue: name) else {
                let choices = LifecycleCallback.allCases.map(\.rawValue).joined(separator: ", ")
                throw RPCError.invalidParams(field: reader.path("implements[\(index)]"), "must be one of \(choices)")
            }
            callbacks.append(callback)
        }
        implementedCallbacks = callbacks
        var identifiers: [String] = []
        for (index, identifier) in try reader.stringArray("permittedTaskIdentifiers").enumerated() {
            guard RegisterBackgroundTaskParams.isValidIdentifier(identifier) else {
                throw RPCError.invalidParams(
                    field: reader.path("permittedTaskIdentifiers[\(index)]"),
                    "must be 1…\(HelloParams.maxAppIDLength) characters from A-Z a-z 0-9 . _ -")
            }
            identifiers.append(identifier)
        }
        permittedTaskIdentifiers = identifiers
    }

    public var json: JSONValue {
        .object(JSONObject(members))
    }

    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("exitsOnSuspend", .bool(exitsOnSuspend)),
            ("backgroundModes", .array(backgroundModes.map(JSONValue.string))),
            ("launchInBackground", .bool(launchInBackground)),
        ]
        if adoptsScenes { members.append(("scenes", .bool(true))) }
        if supportsMultipleScenes { members.append(("multipleScenes", .bool(true))) }
        if !implementedCallbacks.isEmpty {
            members.append(("implements", .array(implementedCallbacks.map { .string($0.rawValue) })))
        }
        if !permittedTaskIdentifiers.isEmpty {
            members.append(("permittedTaskIdentifiers", .array(permittedTaskIdentifiers.map(JSONValue.string))))
        }
        return members
    }
}

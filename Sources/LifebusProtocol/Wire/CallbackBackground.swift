public import LifebusJSON
public import LifebusLifecycle

/// What a callback's request says of the background life and of what the app is opened with (`Protocol/README.md`
/// §10.2): why `didFinishLaunching` launched the app (`launchReason`, a background launch) and with what
/// (`launchOptions`, an app that does not use scenes), which task `performBackgroundTask` and
/// `backgroundTaskWillExpire` are about (`identifier`, `kind`), the push `didReceiveRemoteNotification` or
/// `didReceiveNotificationResponse` delivers (`payload`) and the URL `openURL` opens (`url`).
///
/// A plain value. `payload` and `launchOptions.remoteNotification` are JSON text, valid by construction (the broker
/// read them from a controller's JSON), written into the request as they are. Invariant: not every member is absent
/// (such params carry no `CallbackBackground`), and `launchReason` is never `user` (a user launch leaves it out).
public struct CallbackBackground: Sendable, Hashable {
    public var launchReason: LaunchReason?
    public var identifier: String?
    public var kind: BackgroundTaskKind?
    /// JSON text.
    public var payload: String?
    public var launchOptions: LaunchPayload?
    public var url: String?

    public init(
        launchReason: LaunchReason? = nil, identifier: String? = nil, kind: BackgroundTaskKind? = nil,
        payload: String? = nil, launchOptions: LaunchPayload? = nil, url: String? = nil
    ) {
        self.launchReason = launchReason == .user ? nil : launchReason
        self.identifier = identifier
        self.kind = kind
        self.payload = payload
        self.launchOptions = launchOptions
        self.url = url
    }

    /// Whether it says anything.
    var isEmpty: Bool {
        launchReason == nil && identifier == nil && kind == nil && payload == nil && launchOptions == nil && url == nil
    }

    /// Reads the background members of a callback's params; `nil` when there are none.
    init?(reader: ParamsReader) throws(RPCError) {
        self.init(
            launchReason: try reader.optionalChoice("launchReason", as: LaunchReason.self),
            identifier: try reader.has("identifier") ? reader.taskIdentifier("identifier") : nil,
            kind: try reader.optionalChoice("kind", as: BackgroundTaskKind.self),
            payload: reader.optional("payload").map(\.jsonText),
            launchOptions: try reader.optional("launchOptions").map { value throws(RPCError) in
                try LaunchPayload(json: value, field: reader.path("launchOptions"))
            },
            url: try reader.optionalString("url"))
        if isEmpty { return nil }
    }

    /// The members, in the writer's order (after the app-level and scene ones).
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let launchReason { members.append(("launchReason", .string(launchReason.rawValue))) }
        if let identifier { members.append(("identifier", .string(identifier))) }
        if let kind { members.append(("kind", .string(kind.rawValue))) }
        if let payload { members.append(("payload", JSONValue(embedding: payload))) }
        if let launchOptions { members.append(("launchOptions", launchOptions.json)) }
        if let url { members.append(("url", .string(url))) }
        return members
    }
}

extension LaunchPayload {
    /// The wire form (`launchOptions` of `didFinishLaunching`'s request): `{"url":"notes://7"}`,
    /// `{"remoteNotification":{…}}`, each member only when present, the payload written as the JSON value its text
    /// holds.
    public var json: JSONValue {
        var object: JSONObject = [:]
        if let url { object.append("url", .string(url)) }
        if let remoteNotification { object.append("remoteNotification", JSONValue(embedding: remoteNotification)) }
        return .object(object)
    }

    /// Reads the wire form; -32602 naming `field`'s member on a wrong one, or on an object with neither member.
    public init(json: JSONValue, field: String = "launchOptions") throws(RPCError) {
        let reader = try ParamsReader(json, path: field)
        let url = try reader.optionalString("url")
        let remoteNotification = reader.optional("remoteNotification").map(\.jsonText)
        guard url != nil || remoteNotification != nil else {
            throw RPCError.invalidParams(field: field, "must have url or remoteNotification")
        }
        self.init(url: url, remoteNotification: remoteNotification)
    }
}

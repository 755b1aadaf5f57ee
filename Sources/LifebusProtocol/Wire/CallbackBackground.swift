import LifebusJSON
public import LifebusLifecycle

/// What a callback's request says of the background life (`Protocol/README.md` §10.2): why `didFinishLaunching`
/// launched the app (`launchReason`, a background launch), which task `performBackgroundTask` and
/// `backgroundTaskWillExpire` are about (`identifier`, `kind`), and the push `didReceiveRemoteNotification` delivers
/// (`payload`).
///
/// A plain value. `payload` is JSON text, valid by construction (the broker read it from a controller's JSON),
/// written into the request as it is. Invariant: not every member is absent (such params carry no
/// `CallbackBackground`), and `launchReason` is never `user` (a user launch leaves it out).
public struct CallbackBackground: Sendable, Hashable {
    public var launchReason: LaunchReason?
    public var identifier: String?
    public var kind: BackgroundTaskKind?
    /// JSON text.
    public var payload: String?

    public init(
        launchReason: LaunchReason? = nil, identifier: String? = nil, kind: BackgroundTaskKind? = nil,
        payload: String? = nil
    ) {
        self.launchReason = launchReason == .user ? nil : launchReason
        self.identifier = identifier
        self.kind = kind
        self.payload = payload
    }

    /// Whether it says anything.
    var isEmpty: Bool { launchReason == nil && identifier == nil && kind == nil && payload == nil }

    /// Reads the background members of a callback's params; `nil` when there are none.
    init?(reader: ParamsReader) throws(RPCError) {
        self.init(
            launchReason: try reader.optionalChoice("launchReason", as: LaunchReason.self),
            identifier: try reader.has("identifier") ? reader.taskIdentifier("identifier") : nil,
            kind: try reader.optionalChoice("kind", as: BackgroundTaskKind.self),
            payload: reader.optional("payload").map(\.jsonText))
        if isEmpty { return nil }
    }

    /// The members, in the writer's order (after the app-level and scene ones).
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let launchReason { members.append(("launchReason", .string(launchReason.rawValue))) }
        if let identifier { members.append(("identifier", .string(identifier))) }
        if let kind { members.append(("kind", .string(kind.rawValue))) }
        if let payload { members.append(("payload", JSONValue(embedding: payload))) }
        return members
    }
}

/// What a connecting scene receives (`UIScene.ConnectionOptions`): the URLs it was opened with, the tapped
/// notification's response, a user activity. The JSON texts are opaque to the device (it never parses them; the
/// wire checks them). A plain value of one word (its contents share an immutable box, replaced on change), so a
/// `ControllerEvent` or an action that carries it stays small.
public struct SceneConnectionOptions: Sendable, Hashable {
    /// The contents, never changed once made.
    private final class Contents: Sendable {
        let urlContexts: [String]
        let notificationResponse: String?
        let userActivity: String?

        init(urlContexts: [String], notificationResponse: String?, userActivity: String?) {
            self.urlContexts = urlContexts
            self.notificationResponse = notificationResponse
            self.userActivity = userActivity
        }
    }

    private var contents: Contents

    /// The URLs the scene is opened with (`URLContexts`): a cold start's deep link.
    public var urlContexts: [String] {
        get { contents.urlContexts }
        set {
            self = Self(urlContexts: newValue, notificationResponse: notificationResponse, userActivity: userActivity)
        }
    }

    /// The tapped notification's response (`notificationResponse`), as JSON text.
    public var notificationResponse: String? {
        get { contents.notificationResponse }
        set { self = Self(urlContexts: urlContexts, notificationResponse: newValue, userActivity: userActivity) }
    }

    /// The user activity the scene is opened for (`userActivities`), as JSON text.
    public var userActivity: String? {
        get { contents.userActivity }
        set {
            self = Self(urlContexts: urlContexts, notificationResponse: notificationResponse, userActivity: newValue)
        }
    }

    public init(urlContexts: [String] = [], notificationResponse: String? = nil, userActivity: String? = nil) {
        contents = Contents(
            urlContexts: urlContexts, notificationResponse: notificationResponse, userActivity: userActivity)
    }

    /// No URL, no notification, no activity: what a plain launch or a new window connects with.
    public static let none = SceneConnectionOptions()

    /// Whether the options carry nothing.
    public var isEmpty: Bool {
        urlContexts.isEmpty && notificationResponse == nil && userActivity == nil
    }

    public static func == (lhs: SceneConnectionOptions, rhs: SceneConnectionOptions) -> Bool {
        lhs.contents === rhs.contents
            || (lhs.urlContexts == rhs.urlContexts && lhs.notificationResponse == rhs.notificationResponse
                && lhs.userActivity == rhs.userActivity)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(urlContexts)
        hasher.combine(notificationResponse)
        hasher.combine(userActivity)
    }
}

public import LifebusLifecycle

/// An input the device refused. Clients are untrusted: every wrong input ends here, never in a trap.
public struct Rejection: Sendable, Hashable, CustomStringConvertible {
    /// The refused controller event, when the input was one (this rejection is then its answer).
    public var event: EventID?
    /// The app the input named, when it named one.
    public var app: AppID?
    public var reason: RejectionReason

    public init(event: EventID? = nil, app: AppID? = nil, reason: RejectionReason) {
        self.event = event
        self.app = app
        self.reason = reason
    }

    public var description: String {
        let subject = [event.map { "event \($0)" }, app.map { "app \($0)" }].compactMap { $0 }.joined(separator: ", ")
        let text: String
        switch reason {
        case .duplicateEvent: text = "an event with this id is still pending"
        case .unknownApp: text = "no such app has ever connected"
        case .appNotRunning: text = "the app is not running"
        case .appSuspended: text = "the app is suspended and can do nothing"
        case .alreadyConnected: text = "an app with this id is already connected"
        case .unexpectedAnswer: text = "no such callback is outstanding for this app"
        case .unknownTimer: text = "no timer is due"
        case .deviceLocked: text = "the device is locked"
        case .noRingingCall: text = "no call is ringing"
        case .noCall: text = "no call is ringing or in progress"
        case .callAlreadyActive: text = "a call is already ringing or in progress"
        case .noSuchAlert: text = "no such alert is on screen"
        case .launchTimedOut: text = "the app did not connect within its launch budget"
        case .launchFailed: text = "the app's process could not be started"
        case .backgroundTasksUnavailable: text = "this profile has no background tasks"
        case .backgroundTimeExpired: text = "the app's background time is used up"
        case .duplicateTask: text = "a background task with this id is already open"
        case .unknownTask: text = "no such background task is open, submitted or running"
        case .registrationClosed: text = "task identifiers are registered before didFinishLaunching returns"
        case .taskNotPermitted: text = "the identifier is not in the app's permitted task identifiers"
        case .taskRequiresForeground: text = "a continued-processing task starts from the foreground"
        case .tooManyPendingTaskRequests: text = "too many task requests of this kind are pending"
        case .sceneLifecycleRequired: text = "the app does not adopt scenes, which this profile requires"
        case .scenesUnsupported: text = "the app adopts scenes, which this profile does not have"
        case .appDoesNotAdoptScenes: text = "the app does not adopt scenes"
        case .multipleScenesUnsupported: text = "the app does not support multiple scenes"
        case .unknownScene: text = "no such scene is connected"
        case .unknownSession: text = "no such scene session exists"
        case .sessionConnected: text = "the session already has a connected scene"
        case .sceneInForeground: text = "the scene is in the foreground"
        case .sceneNotInForeground: text = "the scene is not in the foreground"
        }
        return subject.isEmpty ? text : "\(subject): \(text)"
    }
}

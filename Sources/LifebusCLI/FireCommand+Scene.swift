import ArgumentParser
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// `lifebus fire scene ACTION APP [SCENE|SESSION]` and `lifebus fire launch APP [--url U | --push JSON]`: the events
/// that carry scene members (`FireParams+Scene.swift`).
extension LifebusCommand.Fire {
    /// `scene`'s actions, as the word after it (`ActionWord`: the declared actions, in their order).
    enum SceneEvent: FiredEvent { static let event = FireEvent.scene }

    struct Scene: FireSubcommand {
        static let configuration = FireEvent.scene.configuration(
            usage: """
                lifebus fire scene open APP [--url U] [--activity JSON]
                  lifebus fire scene close APP SCENE | close --app APP
                  lifebus fire scene reclaim APP SCENE
                  lifebus fire scene reconnect APP SESSION
                  lifebus fire scene focus APP SCENE
                """)

        @OptionGroup var options: FireOptions
        @Argument(help: "open, close, reclaim, reconnect or focus.") var action: ActionWord<SceneEvent>
        @Argument(help: "The app, by its id.") var app: String
        @Argument(help: ArgumentHelp(
            "The scene (close, reclaim, focus) or the session (reconnect), by its number.", valueName: "number"))
        var number: UInt32?
        @Flag(name: .customLong("app"), help: "close: every scene of the app (as a swipe of the whole app).")
        var wholeApp = false
        @Option(help: "open: the URL the new scene connects with.") var url: String?
        @Option(help: ArgumentHelp("open: the user activity, a JSON object.", valueName: "json"))
        var activity: JSONObjectArgument?

        func validate() throws {
            try requireAppID(app, option: "APP")
            let verb = action.action
            if number == 0 { throw ValidationError("scene and session numbers start at 1") }
            switch verb {
            case .close:
                guard (number == nil) == wholeApp else {
                    throw ValidationError("name the scene to close, or --app for every scene: scene close APP SCENE")
                }
            case .reclaim, .focus, .reconnect:
                guard number != nil else {
                    let what = verb == .reconnect ? "SESSION" : "SCENE"
                    throw ValidationError("scene \(verb.rawValue) needs the \(what.lowercased()): "
                        + "scene \(verb.rawValue) APP \(what)")
                }
            default:
                if number != nil { throw ValidationError("scene open takes no number") }
            }
            if wholeApp, verb != .close { throw ValidationError("--app is only for scene close") }
            if verb != .open, url != nil || activity != nil {
                throw ValidationError("--url and --activity are only for scene open")
            }
        }

        var params: FireParams {
            var params = options.params(.scene, action: action.action, app: app)
            if let number {
                if action.action == .reconnect { params.session = SceneSessionID(number) } else {
                    params.scene = SceneID(number)
                }
            }
            params.url = url
            params.activity = activity.map { JSONValue.object($0.object).jsonText }
            return params
        }
    }

    struct Launch: FireSubcommand {
        static let configuration = FireEvent.launch.configuration(
            usage: "lifebus fire launch APP [--url U | --push JSON]")

        @OptionGroup var options: FireOptions
        @Argument(help: "The app, by its id.") var app: String
        @Option(help: """
            Open this URL: a scene app gets it in willConnectTo's options (a cold start) or openURLContexts, an app \
            without scenes in didFinishLaunching's launchOptions (a cold start) and openURL.
            """)
        var url: String?
        @Option(help: ArgumentHelp(
            """
            A tapped notification with this payload, a JSON object: a cold start gets it in willConnectTo's options \
            or didFinishLaunching's launchOptions (and from ios13 in didReceiveNotificationResponse too), a running \
            app in didReceiveNotificationResponse.
            """, valueName: "json"))
        var push: JSONObjectArgument?

        func validate() throws {
            try requireAppID(app, option: "APP")
            try requireAtMostOne([("--url", url != nil), ("--push", push != nil)])
            if url?.isEmpty == true { throw ValidationError("--url must not be empty") }
        }

        var params: FireParams {
            var params = options.params(.launch, app: app)
            params.url = url
            params.push = push.map { JSONValue.object($0.object).jsonText }
            return params
        }
    }
}

import ArgumentParser
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// `lifebus fire bgtask APP IDENTIFIER [--cancel]` and `lifebus fire push APP [--silent | --alert]
/// [--payload JSON]`: the background life's events (`Protocol/README.md` §10.2, §11.1).
extension LifebusCommand.Fire {
    enum BGTaskEvent: FiredEvent { static let event = FireEvent.bgtask }
    enum PushEvent: FiredEvent { static let event = FireEvent.push }

    struct BGTask: FireSubcommand {
        static let configuration = FireEvent.bgtask.configuration(
            usage: "lifebus fire bgtask APP IDENTIFIER [--cancel]")

        @OptionGroup var options: FireOptions
        @Flag var action: ActionFlag<BGTaskEvent>?
        @Argument(help: "The app, by its id.") var app: String
        @Argument(help: "The task's identifier, as the app registered and submitted it.") var identifier: String

        func validate() throws {
            try requireAppID(app, option: "APP")
            guard RegisterBackgroundTaskParams.isValidIdentifier(identifier) else {
                throw ValidationError("IDENTIFIER must be 1…255 characters from A-Z a-z 0-9 . _ -")
            }
        }

        var params: FireParams {
            var params = options.params(.bgtask, action: action?.action, app: app)
            params.identifier = identifier
            return params
        }
    }

    struct Push: FireSubcommand {
        static let configuration = FireEvent.push.configuration(
            usage: "lifebus fire push APP [--silent | --alert] [--payload JSON]")

        @OptionGroup var options: FireOptions
        @Flag var action: ActionFlag<PushEvent>?
        @Argument(help: "The app, by its id.") var app: String
        @Option(help: ArgumentHelp(
            "The notification's payload, a JSON object (default {}), e.g. '{\"aps\":{\"content-available\":1}}'.",
            valueName: "json"))
        var payload: JSONObjectArgument?

        func validate() throws {
            try requireAppID(app, option: "APP")
        }

        var params: FireParams {
            var params = options.params(.push, action: action?.action, app: app)
            params.payload = payload.map { JSONValue.object($0.object).jsonText }
            return params
        }
    }
}

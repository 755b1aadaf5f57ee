import ArgumentParser
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// `lifebus fire bgtask APP IDENTIFIER [--cancel]` and `lifebus fire push APP [--silent | --alert [--tap]]
/// [--payload JSON]`: the background life's events (`Protocol/README.md` §10.2, §11.1).
extension LifebusCommand.Fire {
    enum BGTaskEvent: FiredEvent { static let event = FireEvent.bgtask }

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

    /// `push`'s actions are flags of their own, so that `--alert --tap` (a visible notification, tapped) reads as
    /// the one action `tap`.
    struct Push: FireSubcommand {
        static let configuration = FireEvent.push.configuration(
            usage: "lifebus fire push APP [--silent|--content-available | --alert [--tap]] [--payload JSON]")

        @OptionGroup var options: FireOptions
        /// `--content-available` too: the APNs key (`"content-available": 1`) that makes a push silent.
        @Flag(name: [.customLong("silent"), .customLong("content-available")], help: ArgumentHelp(
            FireAction.silent.summary + " (--content-available, the APNs key, says the same)"))
        var silent = false
        @Flag(help: ArgumentHelp(FireAction.alert.summary)) var alert = false
        @Flag(help: ArgumentHelp(FireAction.tap.summary)) var tap = false
        @Argument(help: "The app, by its id.") var app: String
        @Option(help: ArgumentHelp(
            "The notification's payload, a JSON object (default {}), e.g. '{\"aps\":{\"content-available\":1}}'.",
            valueName: "json"))
        var payload: JSONObjectArgument?

        /// The one action the flags mean (`nil`: none given, the default `silent`).
        var action: FireAction? {
            tap ? .tap : alert ? .alert : silent ? .silent : nil
        }

        func validate() throws {
            try requireAppID(app, option: "APP")
            guard !silent || !(alert || tap) else {
                throw ValidationError("a push is --silent or visible (--alert, --tap), not both")
            }
        }

        var params: FireParams {
            var params = options.params(.push, action: action, app: app)
            params.payload = payload.map { JSONValue.object($0.object).jsonText }
            return params
        }
    }
}

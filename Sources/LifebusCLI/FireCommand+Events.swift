import ArgumentParser
import LifebusLifecycle
import LifebusProtocol

/// A `fire` subcommand: its options and the params it sends; running it fires them.
protocol FireSubcommand: ParsableCommand {
    var options: FireOptions { get }
    var params: FireParams { get }
}

extension FireSubcommand {
    func run() throws {
        try FireRunner.fire(params, options: options)
    }
}

extension FireOptions {
    /// The `fire` params for an event, with this command's `--no-wait`.
    func params(
        _ event: FireParams.FireEvent,
        action: FireParams.Action? = nil,
        app: String? = nil,
        level: MemoryLevel? = nil,
        byUser: Bool = false
    ) -> FireParams {
        FireParams(event: event, action: action, app: app, level: level, byUser: byUser, wait: !noWait)
    }
}

/// The action of the set flag, or `nil` (the broker's default action) when none is set.
private func action(_ flags: [(action: FireParams.Action, isSet: Bool)]) -> FireParams.Action? {
    flags.first(where: \.isSet)?.action
}

/// A usage error unless at most one of the action flags is set.
private func requireAtMostOneAction(_ flags: [(action: FireParams.Action, isSet: Bool)]) throws {
    try requireAtMostOne(flags.map { ("--" + $0.action.rawValue, $0.isSet) })
}

extension LifebusCommand.Fire {
    struct Call: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "call",
            abstract: "An incoming call: rings (the default), or is answered, declined or ended."
        )

        @OptionGroup var options: FireOptions
        @Flag(help: "Answer the ringing call.") var answer = false
        @Flag(help: "Decline the ringing call.") var decline = false
        @Flag(help: "End the call in progress.") var end = false

        var actions: [(action: FireParams.Action, isSet: Bool)] { [(.answer, answer), (.decline, decline), (.end, end)] }

        func validate() throws {
            try requireAtMostOneAction(actions)
        }

        var params: FireParams { options.params(.call, action: action(actions)) }
    }

    struct SMS: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "sms",
            abstract: "An SMS alert: shown (the default) or as a banner, then replied to or dismissed."
        )

        @OptionGroup var options: FireOptions
        @Flag(help: "Reply to the alert (the Messages app comes to the front).") var reply = false
        @Flag(help: "Dismiss the alert.") var dismiss = false
        @Flag(help: "Show the SMS as a banner, which does not interrupt the app.") var banner = false

        var actions: [(action: FireParams.Action, isSet: Bool)] { [(.reply, reply), (.dismiss, dismiss), (.banner, banner)] }

        func validate() throws {
            try requireAtMostOneAction(actions)
        }

        var params: FireParams { options.params(.sms, action: action(actions)) }
    }

    struct Calendar: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar",
            abstract: "A calendar alert: shown (the default), then viewed or dismissed."
        )

        @OptionGroup var options: FireOptions
        @Flag(help: "View the event (the Calendar app comes to the front).") var view = false
        @Flag(help: "Dismiss the alert.") var dismiss = false

        var actions: [(action: FireParams.Action, isSet: Bool)] { [(.view, view), (.dismiss, dismiss)] }

        func validate() throws {
            try requireAtMostOneAction(actions)
        }

        var params: FireParams { options.params(.calendar, action: action(actions)) }
    }

    struct Sleep: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "sleep", abstract: "The sleep/wake button locks the device.")
        @OptionGroup var options: FireOptions

        var params: FireParams { options.params(.sleep) }
    }

    struct Wake: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "wake", abstract: "The device wakes and is unlocked.")
        @OptionGroup var options: FireOptions

        var params: FireParams { options.params(.wake) }
    }

    struct Home: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "home", abstract: "The home button: the foreground app leaves.")
        @OptionGroup var options: FireOptions

        var params: FireParams { options.params(.home) }
    }

    struct MemoryWarning: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "memory-warning",
            abstract: "A low-memory warning to every running app; critical also ends suspended apps (jetsam)."
        )

        @OptionGroup var options: FireOptions
        @Option(help: "warning (the default) or critical.", transform: parseMemoryLevel)
        var level: MemoryLevel?

        var params: FireParams { options.params(.memoryWarning, level: level) }
    }

    struct Terminate: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "terminate",
            abstract: "Terminate an app: by the system (willTerminate), or with --by-user as from the app switcher.",
            usage: "lifebus fire terminate APP [--by-user]"
        )

        @OptionGroup var options: FireOptions
        @Argument(help: "The app to terminate (as launch and activate take it).") var app: String?
        @Option(name: .customLong("app"), help: ArgumentHelp("The same, as an option.", visibility: .hidden))
        var appOption: String?
        @Flag(help: """
            The user swiped it away in the app switcher: killed at once (SIGKILL, outcome killed) without \
            willTerminate, whatever its state — an active app gets no willResignActive either.
            """)
        var byUser = false

        /// The app, given as an argument or with --app.
        var target: String { app ?? appOption ?? "" }

        func validate() throws {
            guard (app == nil) != (appOption == nil) else {
                throw ValidationError("name the app to terminate once: lifebus fire terminate APP")
            }
            try requireAppID(target, option: "APP")
        }

        var params: FireParams { options.params(.terminate, app: target, byUser: byUser) }
    }

    struct Launch: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "launch",
            abstract: "The user taps an app's icon: it comes to the front (launching when connected but not running)."
        )

        @OptionGroup var options: FireOptions
        @Argument(help: "The app to launch.") var app: String

        func validate() throws {
            try requireAppID(app, option: "APP")
        }

        var params: FireParams { options.params(.launch, app: app) }
    }

    struct Activate: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "activate",
            abstract: "Bring a running app to the front (as the app switcher does)."
        )

        @OptionGroup var options: FireOptions
        @Argument(help: "The app to bring to the front.") var app: String

        func validate() throws {
            try requireAppID(app, option: "APP")
        }

        var params: FireParams { options.params(.activate, app: app) }
    }
}

/// Parses `--level`.
func parseMemoryLevel(_ text: String) throws -> MemoryLevel {
    guard let level = MemoryLevel(rawValue: text) else {
        throw ValidationError("'\(text)' is not a level; use warning or critical")
    }
    return level
}

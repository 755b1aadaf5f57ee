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

extension LifebusCommand.Fire {
    struct Call: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "call",
            abstract: "An incoming call: rings (the default), or is answered, declined or ended."
        )

        @OptionGroup var options: FireOptions
        @Flag var action: CallActionFlag?

        var params: FireParams { options.params(.call, action: action?.wireAction) }
    }

    struct SMS: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "sms",
            abstract: "An SMS alert: shown (the default) or as a banner, then replied to or dismissed."
        )

        @OptionGroup var options: FireOptions
        @Flag var action: SMSActionFlag?

        var params: FireParams { options.params(.sms, action: action?.wireAction) }
    }

    struct Calendar: FireSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar",
            abstract: "A calendar alert: shown (the default), then viewed or dismissed."
        )

        @OptionGroup var options: FireOptions
        @Flag var action: CalendarActionFlag?

        var params: FireParams { options.params(.calendar, action: action?.wireAction) }
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
        @Option(help: "How severe (default: warning).") var level: MemoryLevel?

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

import ArgumentParser
import LifebusProtocol

extension FireOptions {
    /// The `fire` params for an event, with this command's `--no-wait`.
    func params(
        _ event: FireEvent,
        action: String? = nil,
        app: String? = nil,
        level: String? = nil,
        byUser: Bool = false
    ) -> FireParams {
        FireParams(event: event, action: action, app: app, level: level, byUser: byUser, wait: !noWait)
    }
}

/// The first set flag's action name, or `nil` (the broker's default action) when none is set.
private func action(_ flags: [(name: String, isSet: Bool)]) -> String? {
    flags.first(where: \.isSet).map(\.name)
}

extension LifebusCommand.Fire {
    struct Call: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "An incoming call: rings (the default), or is answered, declined or ended."
        )

        @OptionGroup var options: FireOptions
        @Flag(help: "Answer the ringing call.") var answer = false
        @Flag(help: "Decline the ringing call.") var decline = false
        @Flag(help: "End the call in progress.") var end = false

        var actions: [(name: String, isSet: Bool)] { [("answer", answer), ("decline", decline), ("end", end)] }

        func validate() throws {
            try requireAtMostOne(actions.map { ("--\($0.name)", $0.isSet) })
        }

        func run() throws {
            try FireRunner.fire(options.params(.call, action: action(actions)), options: options)
        }
    }

    struct SMS: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sms",
            abstract: "An SMS alert: shown (the default) or as a banner, then replied to or dismissed."
        )

        @OptionGroup var options: FireOptions
        @Flag(help: "Reply to the alert (the Messages app comes to the front).") var reply = false
        @Flag(help: "Dismiss the alert.") var dismiss = false
        @Flag(help: "Show the SMS as a banner, which does not interrupt the app.") var banner = false

        var actions: [(name: String, isSet: Bool)] { [("reply", reply), ("dismiss", dismiss), ("banner", banner)] }

        func validate() throws {
            try requireAtMostOne(actions.map { ("--\($0.name)", $0.isSet) })
        }

        func run() throws {
            try FireRunner.fire(options.params(.sms, action: action(actions)), options: options)
        }
    }

    struct Calendar: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A calendar alert: shown (the default), then viewed or dismissed."
        )

        @OptionGroup var options: FireOptions
        @Flag(help: "View the event (the Calendar app comes to the front).") var view = false
        @Flag(help: "Dismiss the alert.") var dismiss = false

        var actions: [(name: String, isSet: Bool)] { [("view", view), ("dismiss", dismiss)] }

        func validate() throws {
            try requireAtMostOne(actions.map { ("--\($0.name)", $0.isSet) })
        }

        func run() throws {
            try FireRunner.fire(options.params(.calendar, action: action(actions)), options: options)
        }
    }

    struct Sleep: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The sleep/wake button locks the device.")
        @OptionGroup var options: FireOptions

        func run() throws {
            try FireRunner.fire(options.params(.sleep), options: options)
        }
    }

    struct Wake: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The device wakes and is unlocked.")
        @OptionGroup var options: FireOptions

        func run() throws {
            try FireRunner.fire(options.params(.wake), options: options)
        }
    }

    struct Home: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The home button: the foreground app leaves.")
        @OptionGroup var options: FireOptions

        func run() throws {
            try FireRunner.fire(options.params(.home), options: options)
        }
    }

    struct MemoryWarning: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A low-memory warning to every running app; critical also ends suspended apps (jetsam)."
        )

        enum Level: String, ExpressibleByArgument, CaseIterable {
            case warning
            case critical
        }

        @OptionGroup var options: FireOptions
        @Option(help: "warning (the default) or critical.") var level: Level?

        func run() throws {
            try FireRunner.fire(options.params(.memoryWarning, level: level?.rawValue), options: options)
        }
    }

    struct Terminate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Terminate an app: by the system, or with --by-user as from the app switcher."
        )

        @OptionGroup var options: FireOptions
        @Option(help: "The app to terminate.") var app: String
        @Flag(help: "The user killed it (from the app switcher): no willTerminate for a suspended app.")
        var byUser = false

        func validate() throws {
            try requireAppID(app, option: "--app")
        }

        func run() throws {
            try FireRunner.fire(options.params(.terminate, app: app, byUser: byUser), options: options)
        }
    }

    struct Launch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The user taps an app's icon: it comes to the front (launching when connected but not running)."
        )

        @OptionGroup var options: FireOptions
        @Argument(help: "The app to launch.") var app: String

        func validate() throws {
            try requireAppID(app, option: "APP")
        }

        func run() throws {
            try FireRunner.fire(options.params(.launch, app: app), options: options)
        }
    }

    struct Activate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring a running app to the front (as the app switcher does)."
        )

        @OptionGroup var options: FireOptions
        @Argument(help: "The app to bring to the front.") var app: String

        func validate() throws {
            try requireAppID(app, option: "APP")
        }

        func run() throws {
            try FireRunner.fire(options.params(.activate, app: app), options: options)
        }
    }
}

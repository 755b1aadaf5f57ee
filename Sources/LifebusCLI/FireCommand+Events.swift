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
        level: MemoryWarningLevel? = nil,
        byUser: Bool = false
    ) -> FireParams {
        FireParams(event: event, action: action, app: app, level: level, byUser: byUser, wait: !noWait)
    }
}

extension FireEvent {
    /// The `lifebus fire` subcommand of the event (`LifebusCommand.Fire` lists them in `allCases` order). Each is
    /// one of the shapes below, named and described by the event's declaration.
    var command: any FireSubcommand.Type {
        switch self {
        case .call: LifebusCommand.Fire.Call.self
        case .sms: LifebusCommand.Fire.SMS.self
        case .calendar: LifebusCommand.Fire.Calendar.self
        case .sleep: LifebusCommand.Fire.Sleep.self
        case .wake: LifebusCommand.Fire.Wake.self
        case .home: LifebusCommand.Fire.Home.self
        case .launch: LifebusCommand.Fire.Launch.self
        case .activate: LifebusCommand.Fire.Activate.self
        case .memoryWarning: LifebusCommand.Fire.MemoryWarning.self
        case .terminate: LifebusCommand.Fire.Terminate.self
        case .scene: LifebusCommand.Fire.Scene.self
        case .bgtask: LifebusCommand.Fire.BGTask.self
        case .push: LifebusCommand.Fire.Push.self
        case .power: LifebusCommand.Fire.Power.self
        case .network: LifebusCommand.Fire.Network.self
        }
    }

    /// The subcommand's name and abstract: the event's spelling and its declaration's summary.
    func configuration(usage: String? = nil) -> CommandConfiguration {
        CommandConfiguration(commandName: rawValue, abstract: declaration.summary, usage: usage)
    }
}

extension LifebusCommand.Fire {
    typealias Call = WithAction<CallEvent>
    typealias SMS = WithAction<SMSEvent>
    typealias Calendar = WithAction<CalendarEvent>
    typealias Sleep = Plain<SleepEvent>
    typealias Wake = Plain<WakeEvent>
    typealias Home = Plain<HomeEvent>
    typealias Activate = OfApp<ActivateEvent>

    enum CallEvent: FiredEvent { static let event = FireEvent.call }
    enum SMSEvent: FiredEvent { static let event = FireEvent.sms }
    enum CalendarEvent: FiredEvent { static let event = FireEvent.calendar }
    enum SleepEvent: FiredEvent { static let event = FireEvent.sleep }
    enum WakeEvent: FiredEvent { static let event = FireEvent.wake }
    enum HomeEvent: FiredEvent { static let event = FireEvent.home }
    enum ActivateEvent: FiredEvent { static let event = FireEvent.activate }

    /// An event with actions: `lifebus fire EVENT [--ACTION]`.
    struct WithAction<Event: FiredEvent>: FireSubcommand {
        static var configuration: CommandConfiguration { Event.event.configuration() }

        @OptionGroup var options: FireOptions
        @Flag var action: ActionFlag<Event>?

        var params: FireParams { options.params(Event.event, action: action?.action) }
    }

    /// An event of the device alone: `lifebus fire EVENT`.
    struct Plain<Event: FiredEvent>: FireSubcommand {
        static var configuration: CommandConfiguration { Event.event.configuration() }

        @OptionGroup var options: FireOptions

        var params: FireParams { options.params(Event.event) }
    }

    /// An event naming one app: `lifebus fire EVENT APP`.
    struct OfApp<Event: FiredEvent>: FireSubcommand {
        static var configuration: CommandConfiguration { Event.event.configuration() }

        @OptionGroup var options: FireOptions
        @Argument(help: "The app, by its id.") var app: String

        func validate() throws {
            try requireAppID(app, option: "APP")
        }

        var params: FireParams { options.params(Event.event, app: app) }
    }

    struct MemoryWarning: FireSubcommand {
        static let configuration = FireEvent.memoryWarning.configuration()

        @OptionGroup var options: FireOptions
        @Option(help: "How severe (default: warning).") var level: MemoryWarningLevel?

        var params: FireParams { options.params(.memoryWarning, level: level) }
    }

    struct Terminate: FireSubcommand {
        static let configuration = FireEvent.terminate.configuration(usage: "lifebus fire terminate APP [--by-user]")

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
}

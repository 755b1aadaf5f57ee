import ArgumentParser
import Glibc
import Lifebus
import LifebusProtocol

extension LifebusCommand {
    /// `lifebus subscribe`: a ready-made app on the bus for scripts and programs in any language.
    struct Subscribe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join the bus as an app: print each callback as a JSON line, answer after a delay or a command.",
            discussion: """
                Each callback is printed on stdout as one JSON line when it arrives, e.g. \
                {"callback":"didEnterBackground","callbackID":4,"state":"background","cause":{"eventID":3,\
                "event":"call --answer"},"budgetMs":5000} (always JSON; --json is accepted). It is answered at once, \
                after --delay CALLBACK=DUR, or when the shell command of --on CALLBACK=COMMAND exits. The command \
                runs with /bin/sh -c, its stdout sent to stderr (stdout stays JSON), and sees LIFEBUS_CALLBACK, \
                LIFEBUS_CALLBACK_ID, LIFEBUS_APP_ID, LIFEBUS_STATE, LIFEBUS_CAUSE (the event, e.g. "call --answer", \
                empty when none), LIFEBUS_BUDGET_MS and LIFEBUS_SOCKET; its exit status is reported with a \
                `command-exited` mark. After answering willTerminate the process exits 0. If the broker goes away, \
                it reconnects with backoff.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The app id to join as (reverse-DNS, e.g. com.example.Demo).")
        var id: String

        @Option(name: .customLong("delay"), help: ArgumentHelp(
            "Answer CALLBACK after DUR, e.g. willTerminate=7s (repeatable).", valueName: "CALLBACK=DUR"
        ))
        var delays: [String] = []

        @Option(name: .customLong("on"), help: ArgumentHelp(
            "Run COMMAND with /bin/sh -c for CALLBACK and answer when it exits (repeatable).",
            valueName: "CALLBACK=COMMAND"
        ))
        var commands: [String] = []

        @Flag(help: "Declare UIApplicationExitsOnSuspend: terminated instead of suspended.")
        var exitsOnSuspend = false

        @Option(name: .customLong("background-mode"), help: "Declare a UIBackgroundModes entry (repeatable).")
        var backgroundModes: [String] = []

        @Flag(help: "Launch straight into the background when connecting.")
        var launchInBackground = false

        func validate() throws {
            guard HelloParams.isValidAppID(id) else {
                throw ValidationError("--id must be 1…255 characters from A-Z a-z 0-9 . _ -")
            }
            _ = try plan()
        }

        @MainActor
        func run() async throws {
            let plan = try plan()
            let options = ApplicationOptions(
                socketPath: global.socketPath,
                exitsOnSuspend: exitsOnSuspend,
                backgroundModes: backgroundModes,
                launchInBackground: launchInBackground
            )
            let delegate = SubscribeDelegate(plan: plan, socketPath: global.socketPath)
            await ApplicationMain(id: id, delegate: delegate, options: options)
        }

        /// What to do at each callback, from `--delay` and `--on`.
        func plan() throws -> SubscribePlan {
            var plan = SubscribePlan()
            for text in delays {
                let (callback, value) = try Self.split(text, option: "--delay")
                guard let duration = DurationText.parse(value) else {
                    throw ValidationError("--delay \(text): '\(value)' is not a duration; write it like 250ms or 7s")
                }
                try plan.set(.delay(duration), for: callback, text: text)
            }
            for text in commands {
                let (callback, command) = try Self.split(text, option: "--on")
                guard !command.isEmpty else { throw ValidationError("--on \(text): the command is empty") }
                try plan.set(.command(command), for: callback, text: text)
            }
            return plan
        }

        private static func split(_ text: String, option: String) throws -> (LifecycleCallback, String) {
            guard let equals = text.firstIndex(of: "=") else {
                throw ValidationError("\(option) \(text): write CALLBACK=VALUE, e.g. willTerminate=...")
            }
            let name = String(text[..<equals])
            guard let callback = LifecycleCallback(rawValue: name) else {
                let known = LifecycleCallback.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("\(option) \(text): '\(name)' is not a callback (one of \(known))")
            }
            return (callback, String(text[text.index(after: equals)...]))
        }
    }
}

/// What `subscribe` does at each callback before answering. A plain value.
struct SubscribePlan: Equatable {
    enum Reaction: Equatable {
        case delay(Duration)
        case command(String)
    }

    private(set) var reactions: [LifecycleCallback: Reaction] = [:]

    mutating func set(_ reaction: Reaction, for callback: LifecycleCallback, text: String) throws {
        guard reactions[callback] == nil else {
            throw ValidationError("\(text): \(callback.rawValue) already has a --delay or --on")
        }
        reactions[callback] = reaction
    }
}

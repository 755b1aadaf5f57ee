import ArgumentParser
import Glibc
import Lifebus
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

extension LifebusCommand {
    /// `lifebus subscribe`: a ready-made app on the bus for scripts and programs in any language.
    struct Subscribe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "subscribe",
            abstract: "Join the bus as an app, or run a program as one; answer each callback after a delay or a hook.",
            usage: "lifebus subscribe --id ID [--scenes] [--on CALLBACK=COMMAND]... [--delay CALLBACK=DUR]... "
                + "[-- PROGRAM ARGS...]",
            discussion: """
                Each callback is printed on stdout as one JSON line when it arrives, e.g. \
                {"callback":"didEnterBackground","callbackID":4,"state":"background","cause":{"eventID":3,\
                "event":"call --answer"},"budgetMs":5000} (always JSON; --json is accepted). It is answered at once, \
                after --delay CALLBACK=DUR, or when the hook of --on CALLBACK=COMMAND exits. A hook runs with \
                /bin/sh -c, its stdout sent to stderr (stdout stays JSON), and sees LIFEBUS_CALLBACK, \
                LIFEBUS_CALLBACK_ID, LIFEBUS_APP_ID, LIFEBUS_STATE, LIFEBUS_CAUSE (the event, e.g. "call --answer", \
                empty when none), LIFEBUS_BUDGET_MS, LIFEBUS_SOCKET, LIFEBUS_MARK_SOCKET and LIFEBUS_PROTECTED_DATA \
                (available, or unavailable while the device is locked and its protected data discarded). A hook \
                that exits non-zero is a failed callback: the transition is journaled with handlerFailed and fire \
                shows it.

                With -- PROGRAM ARGS..., subscribe runs the program as the app's process: its exit before \
                willTerminate is the app's end (a program-exited mark, then the broker journals crashed, and \
                subscribe exits with the program's status); after willTerminate is answered it gets SIGTERM (SIGKILL \
                after 2s) and subscribe exits 0. The program and each hook run contained, whole tree: whatever they \
                start (in the background, setsid) ends when subscribe does, however it ends — its own exit, \
                SIGINT/SIGTERM/SIGHUP, or a SIGKILL: kill -9, or the watchdog's or jetsam's kill of the app (the \
                broker signals subscribe's process), after which subscribe's guard process ends them. subscribe \
                leads its own process group with them in it (unless it is in a terminal's foreground without \
                leading a group). The program and hooks may call `lifebus mark NAME [--data JSON]`: the mark \
                reaches the broker as this app's, through subscribe (LIFEBUS_MARK_SOCKET, a private socket).

                With --scenes the app adopts the scene-based life cycle (a broker whose profile has no scenes, \
                ios3/ios4/ios7, refuses it: exit 3): it gets the scene callbacks (sceneDidEnterBackground, \
                willConnectTo, …) instead of didEnterBackground and the other three, and a scene callback's line \
                and hook add its scene and session (LIFEBUS_SCENE, LIFEBUS_SESSION, LIFEBUS_SCENE_STATE, and \
                LIFEBUS_RESTORATION, the payload a reconnecting scene is handed back; LIFEBUS_URL and LIFEBUS_PUSH, \
                the URL and the notification its connection options carry). The \
                callbacks the app says it implements (hello's implements) are --implements, else those named by \
                --on and --delay; --restoration JSON is what it answers stateRestorationActivity with.

                Without --scenes, a launch by a URL or a tapped notification gives didFinishLaunching's hook \
                LIFEBUS_URL or LIFEBUS_PUSH (its launch options), openURL's hook LIFEBUS_URL; with or without, \
                didReceiveNotificationResponse's hook (a tap that found the app running) gets LIFEBUS_PUSH, and so \
                does willPresentNotification's (a visible notification arriving while the app is in the \
                foreground), answered with the --present options (none by default: no banner).

                subscribe says on stderr what it waits for; when no broker answers (or the id is in use) within \
                --connect-timeout it exits 3, unless --retry; a PROGRAM that ends before subscribe ever connected \
                is exit 3 too, with the reason (never 0 without a broker). If the broker goes away later it says so \
                and reconnects with backoff.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The app id to join as (reverse-DNS, e.g. com.example.Demo).")
        var id: String

        @Option(name: .customLong("delay"), help: ArgumentHelp(
            "Answer CALLBACK after DUR, e.g. willTerminate=7s (repeatable). CALLBACK: "
                + "\(CallbackReaction.callbackList).",
            valueName: "CALLBACK=DUR"
        ))
        var delays: [CallbackDelay] = []

        @Option(name: .customLong("on"), help: ArgumentHelp(
            "Run COMMAND (not empty) with /bin/sh -c for CALLBACK and answer when it exits; non-zero is a failed "
                + "callback (repeatable). CALLBACK as for --delay.",
            valueName: "CALLBACK=COMMAND"
        ))
        var commands: [CallbackHook] = []

        @Flag(help: "Declare UIApplicationExitsOnSuspend: terminated instead of suspended.")
        var exitsOnSuspend = false

        @Option(name: .customLong("background-mode"), help: ArgumentHelp(
            "Declare a UIBackgroundModes entry (repeatable).", valueName: "mode"
        ))
        var backgroundModes: [BackgroundModeChoice] = []

        @Flag(help: "Launch straight into the background when connecting.")
        var launchInBackground = false

        @Option(name: .customLong("task"), help: ArgumentHelp(
            "Declare and register a BGTaskScheduler identifier at launch, submitted as an appRefresh task due 15 "
                + "minutes later (repeatable): when the broker runs it (or `fire bgtask`), its line is printed and the "
                + "performBackgroundTask hook's exit completes it (0: success).",
            valueName: "identifier"))
        var tasks: [String] = []

        @Flag(help: "Adopt the scene-based life cycle (the scene callbacks; needs a profile with scenes, ios13+).")
        var scenes = false

        @Flag(help: "Declare UIApplicationSupportsMultipleScenes (with --scenes).")
        var multipleScenes = false

        @Option(help: ArgumentHelp(
            "The callbacks the app says it implements (default: those --on and --delay name).",
            valueName: "callback,…"))
        var implements: ChoiceList<LifecycleCallback>?

        @Option(help: ArgumentHelp(
            "With --scenes: the destruction conditions its scenes declare (honoured from ios26): "
                + SceneDestructionConditions.named.map(\.name).joined(separator: ", ") + ".",
            valueName: "condition,…"))
        var destructionConditions: String?

        @Option(help: ArgumentHelp(
            "With --scenes: the payload to answer stateRestorationActivity with (kept with the scene's session and "
                + "handed back at its next willConnectTo), a JSON object.",
            valueName: "json"))
        var restoration: JSONObjectArgument?

        @Option(help: ArgumentHelp(
            "The presentation options to answer willPresentNotification with: "
                + NotificationPresentationOptions.allOptions.map(\.name).joined(separator: ", ")
                + ", or none (the default: as an app that does not implement the method).",
            valueName: "option,…"))
        var present: String?

        @Option(help: ArgumentHelp(
            "Give up (exit 3) when no broker has accepted the app within this long (e.g. 500ms, 10s).",
            valueName: "duration"))
        var connectTimeout = DurationArgument(.seconds(5))

        @Flag(help: "Keep trying to connect for ever instead of giving up after --connect-timeout.")
        var retry = false

        @Argument(parsing: .postTerminator, help: ArgumentHelp(
            "The program to run as the app (after --), with its arguments.", valueName: "program"
        ))
        var program: [String] = []

        func validate() throws {
            guard HelloParams.isValidAppID(id) else {
                throw ValidationError("--id must be 1…255 characters from A-Z a-z 0-9 . _ -")
            }
            _ = try plan()
            if multipleScenes, !scenes { throw ValidationError("--multiple-scenes needs --scenes") }
            if restoration != nil, !scenes { throw ValidationError("--restoration needs --scenes") }
            if let bad = tasks.first(where: { !RegisterBackgroundTaskParams.isValidIdentifier($0) }) {
                throw ValidationError("--task \(bad): 1…255 characters from A-Z a-z 0-9 . _ -")
            }
            if destructionConditions != nil, !scenes {
                throw ValidationError("--destruction-conditions needs --scenes")
            }
            _ = try declaredDestructionConditions()
            _ = try presentation()
        }

        /// `--present` as options; `none` (or no `--present`) is none, a name it does not know a usage error that
        /// lists the known ones.
        func presentation() throws -> NotificationPresentationOptions {
            guard let present, present != "none" else { return [] }
            var options: NotificationPresentationOptions = []
            for name in present.split(separator: ",", omittingEmptySubsequences: false) {
                guard let option = NotificationPresentationOptions(name: String(name)) else {
                    throw ValidationError(
                        "--present: unknown option '\(name)' (known: "
                            + NotificationPresentationOptions.allOptions.map(\.name).joined(separator: ", ")
                            + ", or none)")
                }
                options.insert(option)
            }
            return options
        }

        /// `--destruction-conditions` as a set; a name it does not know is a usage error that lists the known ones.
        func declaredDestructionConditions() throws -> SceneDestructionConditions {
            var conditions: SceneDestructionConditions = []
            for name in (destructionConditions ?? "").split(separator: ",") {
                guard let known = SceneDestructionConditions.named.first(where: { $0.name == name }) else {
                    throw ValidationError(
                        "--destruction-conditions: unknown condition '\(name)' (known: "
                            + SceneDestructionConditions.named.map(\.name).joined(separator: ", ") + ")")
                }
                conditions.insert(known.condition)
            }
            return conditions
        }

        /// What hello says the app implements: `--implements`, else the callbacks `--on` and `--delay` name, in
        /// `LifecycleCallback` order.
        var implementedCallbacks: [LifecycleCallback] {
            if let implements { return implements.choices }
            let named = Set(delays.map(\.value.callback) + commands.map(\.value.callback))
            return LifecycleCallback.allCases.filter(named.contains)
        }

        @MainActor
        func run() async throws {
            let plan = try plan()
            Self.leadProcessGroup()
            let socketPath = global.socketPath
            let diagnostics = SubscribeDiagnostics(appID: id)
            let application = Application(id: id, options: ApplicationOptions(
                socketPath: socketPath,
                exitsOnSuspend: exitsOnSuspend,
                backgroundModes: backgroundModes.map(\.name),
                launchInBackground: launchInBackground,
                supportsMultipleScenes: multipleScenes,
                fallsBackFromScenes: false,  // --scenes was asked for: a broker without them refuses the app
                implementedCallbacks: implementedCallbacks,
                destructionConditions: try declaredDestructionConditions(),
                permittedTaskIdentifiers: tasks,
                connectTimeout: retry ? nil : connectTimeout.duration,
                diagnostics: diagnostics.printer
            ))
            let started = await SubscribeSupervisor.start { params, done in
                Task { @MainActor in
                    do throws(RPCError) {
                        try await application.mark(params.name, data: params.data ?? [:])
                        done(.success(()))
                    } catch {
                        done(.failure(error))
                    }
                }
            }
            let supervisor: SupervisorHandle
            switch started {
            case .success(let handle): supervisor = handle
            case .failure(let error):
                StandardError.writeLine("lifebus subscribe: cannot open the mark relay: \(error)")
                throw CLIExitStatus.unreachable
            }
            let session = SubscribeSession(
                application: application, supervisor: supervisor, diagnostics: diagnostics, socketPath: socketPath)
            let delegate = SubscribeDelegate(plan: plan, socketPath: socketPath, supervisor: supervisor)
            delegate.restoration = restoration.map { JSONValue.object($0.object).jsonText }
            delegate.taskIdentifiers = tasks
            delegate.presentation = try presentation()
            delegate.onWillTerminate = { session.terminating = true }
            if !program.isEmpty {
                do throws(UVError) {
                    try await session.startProgram(program, socketPath: socketPath)
                } catch {
                    StandardError.writeLine("lifebus subscribe: cannot start \(program[0]): \(error)")
                    await supervisor.shutdown()
                    throw CLIExitStatus.usage
                }
            }
            await session.run(
                delegate: delegate, scenes: scenes, connectTimeout: retry ? nil : connectTimeout.duration)
        }

        /// Makes subscribe lead a process group of its own with the program and the hooks' shells in it, so a signal
        /// to the group reaches them all (the broker's kill of an app whose process it could not hold, Protocol §9
        /// "Kills"; the kill through the process it holds signals subscribe alone, and the guard ends the rest) —
        /// unless it already leads one (a shell's job), or runs in a terminal's foreground group that it does not
        /// lead (leaving it would take Ctrl-C away).
        static func leadProcessGroup() {
            guard getpgrp() != getpid(), tcgetpgrp(STDIN_FILENO) != getpgrp() else { return }
            setpgid(0, 0)
        }

        /// What to do at each callback, from `--delay` and `--on`; a callback named twice is a usage error.
        func plan() throws -> SubscribePlan {
            var plan = SubscribePlan()
            for reaction in delays.map(\.value) + commands.map(\.value) {
                guard plan.reactions[reaction.callback] == nil else {
                    throw ValidationError("\(reaction.callback.rawValue) has more than one --delay or --on")
                }
                plan.reactions[reaction.callback] = reaction.reaction
            }
            return plan
        }
    }
}

/// What `subscribe` does at each callback before answering. A plain value.
struct SubscribePlan: Equatable {
    var reactions: [LifecycleCallback: CallbackReaction.Reaction] = [:]
}

import Glibc
import Lifebus
import LifebusProtocol

/// The delegate behind `lifebus subscribe`: prints each callback as a JSON line, then waits, runs a command, or
/// answers at once, as the plan says.
///
/// Owns the plan. Bound to the main actor (every delegate method runs there, one callback at a time).
@MainActor
final class SubscribeDelegate: ApplicationDelegate {
    private let plan: SubscribePlan
    private let socketPath: String

    init(plan: SubscribePlan, socketPath: String) {
        self.plan = plan
        self.socketPath = socketPath
    }

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async { await handle(application) }
    func didBecomeActive(_ application: Application) async { await handle(application) }
    func willResignActive(_ application: Application) async { await handle(application) }
    func didEnterBackground(_ application: Application) async { await handle(application) }
    func willEnterForeground(_ application: Application) async { await handle(application) }
    func willTerminate(_ application: Application) async { await handle(application) }
    func didReceiveMemoryWarning(_ application: Application) async { await handle(application) }

    private func handle(_ application: Application) async {
        guard let callback = application.currentCallback else { return }
        print(Self.line(for: callback).jsonText)
        fflush(nil)
        switch plan.reactions[callback.callback] {
        case nil:
            break
        case .delay(let duration):
            try? await Task.sleep(for: duration)
        case .command(let command):
            let environment = Self.environment(for: callback, appID: application.id, socketPath: socketPath)
            let status = await SubscribeProcess.run(command, environment: environment)
            try? await application.mark("command-exited", data: [
                "callback": .string(callback.callback.rawValue),
                "command": .string(command),
                "status": status.json,
            ])
        }
    }

    /// The printed line: the callback's wire params, callback name first.
    static func line(for callback: CallbackParams) -> JSONValue {
        [
            "callback": .string(callback.callback.rawValue),
            "callbackID": .integer(callback.callbackID),
            "state": .string(callback.state.rawValue),
            "cause": callback.cause?.json ?? .null,
            "budgetMs": .double(callback.budgetMs),
        ]
    }

    /// The variables a `--on` command sees, on top of the process's own environment.
    static func environment(for callback: CallbackParams, appID: String, socketPath: String) -> [String: String] {
        [
            "LIFEBUS_CALLBACK": callback.callback.rawValue,
            "LIFEBUS_CALLBACK_ID": String(callback.callbackID),
            "LIFEBUS_APP_ID": appID,
            "LIFEBUS_STATE": callback.state.rawValue,
            "LIFEBUS_CAUSE": callback.cause?.event ?? "",
            "LIFEBUS_BUDGET_MS": SubscribeDelegate.format(callback.budgetMs),
            "LIFEBUS_SOCKET": socketPath,
        ]
    }

    /// Whole milliseconds without a fraction (`5000`), others as Swift prints them (`12.5`).
    static func format(_ milliseconds: Double) -> String {
        if milliseconds.rounded() == milliseconds, abs(milliseconds) < 1e15 { return String(Int64(milliseconds)) }
        return String(milliseconds)
    }
}

import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// What a `lifebus` command says on stderr when its answer takes longer than `WaitNotice.patience`: what it waits
/// for and how long it will wait (`waiting for com.example.X to connect (launch budget 20s); …`), once, so a wait
/// is never silent. Plain text as `lifebus: MESSAGE`, or with `--json` one line `{"waiting":{"message":…}}`.
///
/// Stateless helpers; the notices that need the broker's view ask it with `status` on the command's own connection
/// (answered at once, beside the pending request).
enum WaitNotice {
    /// How long a command waits in silence before it says what it waits for.
    static let patience = Duration.seconds(2)

    /// Says how a notice is written: plain or JSON.
    typealias Say = (String) -> Void

    static func writer(json: Bool) -> Say {
        { message in
            guard json else { return StandardError.writeLine("lifebus: \(message)") }
            StandardError.writeLine(JSONValue.object(["waiting": .object(["message": .string(message)])]).jsonText)
        }
    }

    /// The advice for an app that does not connect.
    static func connectAdvice(_ app: String) -> String {
        "a program that does not speak the protocol needs `lifebus subscribe -- PROGRAM` — see `lifebus logs \(app)`"
    }

    /// The line for an app whose launch waits for its process to connect.
    static func launching(_ app: String, budgetMs: Double) -> String {
        "waiting for \(app) to connect (launch budget \(seconds(budgetMs))); \(connectAdvice(app))"
    }

    /// A `fire` still unanswered: the apps a launch waits for (from `status`), else its transitions.
    static func fire(_ label: String, peer: RPCPeer, say: @escaping Say) {
        transitions(peer: peer, say: say, otherwise: "waiting for the transitions of \(label) to complete (each "
            + "callback within its budget; --no-wait returns at once)")
    }

    /// A request that waits for transitions (`fire`, `reset`, `advance`): the apps a launch waits for (from
    /// `status`), else `otherwise`.
    static func transitions(peer: RPCPeer, say: @escaping Say, otherwise: String) {
        peer.request(LifebusMethod.status, params: StatusParams().json) { answer in
            let awaited = (try? answer.get()).flatMap { try? StatusResult(json: $0) }?.apps
                .compactMap { app in app.launchBudgetMs.map { (app.id, $0) } } ?? []
            guard !awaited.isEmpty else { return say(otherwise) }
            for (app, budget) in awaited { say(launching(app, budgetMs: budget)) }
        }
    }

    /// A `wait` still unanswered: how long it waits, and whether the app is connected at all.
    static func wait(_ params: WaitParams, timeout: Duration, peer: RPCPeer, say: @escaping Say) {
        let waiting = "waiting up to \(DurationText.format(timeout)) for \(params.app) to be \(params.statesText)"
        peer.request(LifebusMethod.status, params: StatusParams(app: params.app).json) { answer in
            let app = (try? answer.get()).flatMap { try? StatusResult(json: $0) }?.apps.first
            switch app {
            case let app? where app.connected:
                say("\(waiting); it is \(app.state.rawValue)")
            case let app?:
                let launch = app.launchBudgetMs.map { ", a launch waits for it (budget \(seconds($0)))" } ?? ""
                say("\(waiting); it is not connected\(launch) — \(connectAdvice(params.app))")
            case nil:
                say("\(waiting); it has not connected to this broker — \(connectAdvice(params.app))")
            }
        }
    }

    /// Milliseconds as a person reads a budget: `20 s`, `250 ms`.
    static func seconds(_ milliseconds: Double) -> String {
        DurationText.format(Duration(clampingMilliseconds: milliseconds))
    }
}

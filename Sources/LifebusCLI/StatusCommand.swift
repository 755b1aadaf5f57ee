import ArgumentParser
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus status [APP]`: the device (lock, call, alert, foreground) and each app's pid, state and since when,
    /// and under a scene app each of its sessions with its connected scene and that scene's state.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the device and every app: pid, state, since when, foreground, lock, call.",
            discussion: """
                With APP, only that app (exit 4 when the broker knows no such app). A scene app's sessions follow \
                it, one line each: `  session 2 · scene 3  foregroundActive` (`no scene` when its scene was \
                disconnected; `restoration kept` when the broker keeps a payload for it); --json carries them as \
                the app's `scenes`.
                """
        )

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Show only this app.") var app: String?

        func validate() throws {
            if let app { try requireAppID(app, option: "APP") }
        }

        func run() throws {
            let json = global.json
            let params = StatusParams(app: app)
            try BrokerCall.run(path: global.socketPath, json: global.json) { peer, _, finish in
                peer.request(LifebusMethod.status, params: params.json) { answer in
                    switch answer {
                    case .failure(let error):
                        finish(.refused(error))
                    case .success(let value):
                        do throws(RPCError) {
                            let status = try StatusResult(json: value)
                            print(json
                                ? status.json.jsonText : StatusFormatting.describe(status, style: .standardOutput))
                            finish(.success)
                        } catch {
                            finish(.refused(error))
                        }
                    }
                }
            }
        }
    }
}

/// How `lifebus status` shows the device and its apps to people. Stateless.
enum StatusFormatting {
    static func describe(_ status: StatusResult, style: TerminalStyle) -> String {
        let device = [
            "profile \(status.profile.rawValue)",
            "locked \(status.locked ? "yes" : "no")",
            "call \(status.call.rawValue)",
            "alert \(status.alert?.rawValue ?? "none")",
            "foreground \(status.foreground ?? "none")",
        ].joined(separator: "  ") + (status.pressure.map { "  memory pressure \($0)" } ?? "")
            + (status.protectedDataAvailable ? "" : "  protected data unavailable")
        guard !status.apps.isEmpty else { return device + "\nno apps" }
        let sampled = status.apps.contains { $0.residentBytes != nil }
        var table = TextTable(columns: [
            .init("app", minimumWidth: 24), .init("pid", .right), .init("state"), .init("since ms", .right),
            .init("connected"),
        ] + (sampled ? [TextTable.Column("resident", .right)] : []))
        table.rows = status.apps.flatMap { app in
            let row: [TextTable.Cell] = [
                TextTable.Cell(app.id, app.id == status.foreground ? .bold : nil),
                TextTable.Cell(app.pid.map { "\($0)" } ?? "-"),
                TextTable.Cell(app.state.rawValue + (app.frozen ? " (frozen)" : ""), colour(of: app.state)),
                TextTable.Cell(TransitionFormatting.milliseconds(app.sinceMs)),
                TextTable.Cell(app.connected ? "yes" : "no"),
            ] + (sampled ? [TextTable.Cell(app.residentBytes.map { "\($0 >> 10) KiB" } ?? "-")] : [])
            return [row] + app.scenes.map { sessionCells($0, sampled: sampled) }
                + app.tasks.map { taskCells($0, sampled: sampled) }
        }
        return ([device] + table.render(style: style)).joined(separator: "\n")
    }

    /// A session's row under its app: `  session 2 · scene 3`, its scene's state (or `no scene`), whether a
    /// restoration payload is kept.
    static func sessionCells(_ entry: SceneSessionEntry, sampled: Bool) -> [TextTable.Cell] {
        let name = "  session \(entry.session.number)" + (entry.scene.map { " · scene \($0.number)" } ?? "")
        let kept = entry.restoration ? ", restoration kept" : ""
        let state = entry.state.map { TextTable.Cell($0.rawValue + kept, $0.isForeground ? .green : .dim) }
            ?? TextTable.Cell("no scene" + kept, .dim)
        return [TextTable.Cell(name), "", state, "", ""] + (sampled ? [""] : [])
    }

    /// A task's row under its app: `  task com.x.refresh (appRefresh)`, `pending from 900000.000 ms`,
    /// `waiting for idle, externalPower` or `running until 930000.000 ms`.
    static func taskCells(_ entry: TaskStatusEntry, sampled: Bool) -> [TextTable.Cell] {
        let name = "  task \(entry.identifier) (\(entry.kind.rawValue))"
        let when: String? = switch entry.state {
        case .pending: entry.earliestBeginMs.map { " from \(TransitionFormatting.milliseconds($0)) ms" }
        case .waiting: " for " + entry.waitingFor.map(\.rawValue).joined(separator: ", ")
        case .running: entry.deadlineMs.map { " until \(TransitionFormatting.milliseconds($0)) ms" }
        }
        let state = TextTable.Cell(entry.state.rawValue + (when ?? ""), entry.state == .running ? .cyan : .dim)
        return [TextTable.Cell(name), "", state, "", ""] + (sampled ? [""] : [])
    }

    static func colour(of state: LifecycleState) -> TerminalStyle.Colour? {
        switch state {
        case .active: .green
        case .inactive: .yellow
        case .background: .cyan
        case .suspended, .notRunning: .dim
        }
    }
}

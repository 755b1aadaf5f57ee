import LifebusExpectation
import LifebusLifecycle
import LifebusProtocol

/// How the CLI shows transitions and marks to people: one table layout shared by `fire`, `wait`, `history` and
/// `watch`, so a row means the same everywhere.
///
/// Stateless. Columns: journal sequence number, when the callback was sent (ms on the broker's clock), app (a scene
/// transition's: `APP/SCENE (session N)`, the scene as `wait APP/SCENE` names it), callback (or `mark NAME`),
/// `from → to`, latency (answered − sent), the handler's own duration, the budget, the outcome (coloured: ok green,
/// late yellow, an ending red), and the cause (the event's label; a mark's data).
/// Times the broker did not record show as `-`. Run records are lines of their own (`+Runs`).
enum TransitionFormatting {
    static let columns: [TextTable.Column] = [
        .init("#", .right, minimumWidth: 4),
        .init("at ms", .right, minimumWidth: 10),
        .init("app", minimumWidth: 24),
        .init("callback", minimumWidth: 24),
        .init("from → to", minimumWidth: 23),
        .init("latency ms", .right),
        .init("handler ms", .right),
        .init("budget ms", .right),
        .init("outcome", minimumWidth: 8),
        .init("cause"),
    ]

    /// A table of `entries`, oldest first as given.
    static func table(_ entries: [JournalEntry]) -> TextTable {
        var table = TextTable(columns: columns)
        table.rows = entries.map(cells)
        return table
    }

    static func table(_ records: [TransitionRecord]) -> TextTable {
        table(records.map(JournalEntry.transition))
    }

    /// The row of an entry; a run record's row is its one line (`runLine`), for output laid out line by line.
    static func cells(_ entry: JournalEntry) -> [TextTable.Cell] {
        switch entry {
        case .transition(let record): cells(record)
        case .mark(let record): cells(record)
        case .run(let record): [TextTable.Cell(runLine(record), .bold)]
        case .process(let record): cells(record)
        case .task(let record): cells(record)
        case .push(let record): cells(record)
        case .protectedData(let record): cells(record)
        }
    }

    static func cells(_ record: TransitionRecord) -> [TextTable.Cell] {
        let latency = record.answeredMs.map { milliseconds($0 - record.sentMs) } ?? "-"
        return [
            TextTable.Cell("\(record.seq)", .dim),
            TextTable.Cell(milliseconds(record.sentMs)),
            TextTable.Cell(appText(record)),
            TextTable.Cell(record.callback?.rawValue ?? "(none)"),
            TextTable.Cell("\(record.from.rawValue) → \(record.to.rawValue)"),
            TextTable.Cell(latency),
            TextTable.Cell(record.handlerMs.map(milliseconds) ?? "-"),
            TextTable.Cell(budget(record.budgetMs)),
            TextTable.Cell(Verdict.text(record), record.handlerFailed ? .red : colour(of: record.outcome)),
            TextTable.Cell(record.cause?.event ?? ""),
        ]
    }

    /// The app cell: the app, or for a scene transition `com.example.Notes/2 (session 1)`.
    static func appText(_ record: TransitionRecord) -> String {
        guard let scene = record.scene else { return record.app }
        return "\(record.app)/\(scene.scene.number) (session \(scene.session.number))"
    }

    static func cells(_ record: MarkRecord) -> [TextTable.Cell] {
        [
            TextTable.Cell("\(record.seq)", .dim),
            TextTable.Cell(milliseconds(record.atMs)),
            TextTable.Cell(record.app),
            TextTable.Cell("mark \(record.name)", .cyan),
            "", "", "", "", "",
            TextTable.Cell(record.data.map { abbreviated($0.description) } ?? ""),
        ]
    }

    /// A process record's row: `process started pid 4321`, `process exited pid 4321 signal 9 (jetsam)`.
    static func cells(_ record: ProcessRecord) -> [TextTable.Cell] {
        let pid = record.pid.map { " pid \($0)" } ?? ""
        let ending = record.status.map { " status \($0)" } ?? record.signal.map { " signal \($0)" } ?? ""
        let reason = record.reason.map { " (\($0.rawValue))" } ?? record.launch.map { launch in
            let previous = launch.previousPid.map { ", was pid \($0)" } ?? ""
            return " (\(launch.reason.rawValue)\(previous), restored \(launch.restoredBytes) bytes)"
        } ?? ""
        let colour: TerminalStyle.Colour = record.event == .started ? .cyan : .red
        return [
            TextTable.Cell("\(record.seq)", .dim),
            TextTable.Cell(milliseconds(record.atMs)),
            TextTable.Cell(record.app),
            TextTable.Cell("process \(record.event.rawValue)\(pid)\(ending)\(reason)", colour),
            "", "", "", "", "",
            TextTable.Cell(record.detail.map(abbreviated) ?? ""),
        ]
    }

    static func colour(of outcome: TransitionOutcome) -> TerminalStyle.Colour {
        switch outcome {
        case .ok: .green
        case .late: .yellow
        case .watchdog, .crashed, .disconnected, .killed, .jetsam: .red
        }
    }

    /// A budget: whole milliseconds when it is whole (`5000`), else three decimals (a scaled budget: `50.500`).
    static func budget(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : milliseconds(value)
    }

    /// The longest mark data a table shows; longer data ends in `…` (`--json` shows all of it).
    static let maxDataWidth = 200

    /// `text`, cut to `maxDataWidth` characters with a `…`.
    static func abbreviated(_ text: String) -> String {
        text.utf8.count <= maxDataWidth ? text : String(text.prefix(maxDataWidth - 1)) + "…"
    }

    /// Milliseconds with three decimals (microsecond resolution), e.g. `12.345`.
    static func milliseconds(_ value: Double) -> String {
        value < 0 ? "-" + formatMilliseconds(-value) : formatMilliseconds(value)
    }
}

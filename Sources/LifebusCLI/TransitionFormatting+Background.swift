import LifebusProtocol

/// The rows `lifebus history` and `watch` print for the background life's records (`Protocol/README.md` §13):
/// `task appRefresh com.x.refresh launched`, `push answered newData`, `push presented none`, `protected data
/// unavailable`.
extension TransitionFormatting {
    static func cells(_ record: BackgroundTaskRecord) -> [TextTable.Cell] {
        let success = record.success.map { $0 ? " (success)" : " (failure)" } ?? ""
        let colour: TerminalStyle.Colour = record.event == .expired ? .red : .cyan
        return [
            TextTable.Cell("\(record.seq)", .dim),
            TextTable.Cell(milliseconds(record.atMs)),
            TextTable.Cell(record.app),
            TextTable.Cell(
                "task \(record.kind.rawValue) \(record.identifier) \(record.event.rawValue)\(success)", colour),
            "", "", "", "", "", "",
        ]
    }

    static func cells(_ record: PushDeliveryRecord) -> [TextTable.Cell] {
        let colour: TerminalStyle.Colour = record.event == .late || record.result == .failed ? .red : .cyan
        return [
            TextTable.Cell("\(record.seq)", .dim),
            TextTable.Cell(milliseconds(record.atMs)),
            TextTable.Cell(record.app),
            TextTable.Cell("push \(record.step)", colour),
            "", "", "", "", "",
            TextTable.Cell(abbreviated(record.payload)),
        ]
    }

    static func cells(_ record: ProtectedDataRecord) -> [TextTable.Cell] {
        [
            TextTable.Cell("\(record.seq)", .dim),
            TextTable.Cell(milliseconds(record.atMs)),
            "",
            TextTable.Cell("protected data \(record.available ? "available" : "unavailable")", .cyan),
            "", "", "", "", "", "",
        ]
    }
}

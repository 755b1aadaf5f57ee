import ArgumentParser
import LifebusCoverage
import LifebusProtocol

extension LifebusCommand {
    /// `lifebus coverage`: which rows of `Protocol/lifecycle.md` the journals exercised for each app, per profile.
    struct Coverage: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "coverage",
            abstract: "Show which rows of the lifecycle table (Protocol/lifecycle.md) journals exercised, per app.",
            discussion: """
                Reads the running broker's history, or with --journal (repeatable) journal files, every run in \
                them. For each app and profile: how many of the table's rows a journal can show were reached, \
                which (and by how many records), and which were never reached, with their situations. A record's \
                row is named by its cause event, callback, states before and after, outcome, the run's profile \
                and the other transitions of the same event. Rows no journal can show (rejections, events that \
                move no app, rows whose records are another row's) are listed apart; --json gives the reasons.
                """
        )

        @OptionGroup var global: GlobalOptions
        @Option(help: "Read this journal file (repeatable) instead of asking the broker.") var journal: [String] = []
        @Option(help: "Only this app.") var app: String?

        func validate() throws {
            if let app { try requireAppID(app, option: "--app") }
        }

        func run() throws {
            var entries: [JournalEntry] = []
            if journal.isEmpty {
                entries = try BrokerHistory.fetch(socketPath: global.socketPath)
            } else {
                for path in journal { entries += try JournalReader.entriesForCommand(path: path) }
            }
            let coverage = LifecycleCoverage(entries: entries, app: app)
            print(global.json ? coverage.json.jsonText : coverage.text)
        }
    }
}

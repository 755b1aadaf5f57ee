import ArgumentParser
import LifebusIO
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus history [APP]`: the journaled transitions and marks, from the broker or straight from a journal file.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Show the transitions (times in ms, outcomes) and marks, oldest first.",
            discussion: """
                Asks the running broker (which keeps the last 10,000 entries, at most 8 MiB of them; the answer \
                comes in pages of at most 1,000 entries, followed to the end), or with --journal reads the \
                broker's journal file without a broker (a torn last line, from a broker killed mid-write, is \
                skipped). Each broker run starts with a line `— run started TIME (lifebusd VERSION, pid PID, \
                PROFILE, ×SCALE; seq N) —`. With --json, one JSON object per line, as in the journal (run records \
                included). A rotated journal's older files are PATH.1 (newest) to PATH.3: read one with --journal, \
                or all in order with `cat PATH.3 PATH.2 PATH.1 PATH > all.jsonl`. With --reproducible (JSON), what \
                two runs of one scenario under `lifebusd --clock manual` record alike: without seq, pids, handler \
                times and wall-clock stamps, each run's records in canonical order (time, app, kind, name).
                """
        )

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Show only this app's entries.") var app: String?
        @Option(help: "Read this journal file instead of asking the broker.") var journal: String?
        @Option(help: "Show at most the last N entries.") var limit: Int?
        @Flag(help: "JSON without what differs between runs (seq, pids, handler times, wall clocks), canonical order.")
        var reproducible = false

        func validate() throws {
            if let app { try requireAppID(app, option: "APP") }
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() throws {
            if let journal {
                try printJournal(at: journal)
                return
            }
            let (app, limit, json, reproducible) = (app, limit, global.json, reproducible)
            try BrokerCall.run(path: global.socketPath, json: global.json) { peer, _, finish in
                peer.requestHistory(app: app, limit: limit) { answer in
                    switch answer {
                    case .success(let entries):
                        HistoryOutput.print(entries, json: json, reproducible: reproducible)
                        finish(.success)
                    case .failure(let error):
                        finish(.refused(error))
                    }
                }
            }
        }

        private func printJournal(at path: String) throws {
            let entries = try JournalReader.entriesForCommand(path: path)
            HistoryOutput.print(HistoryOutput.select(entries, app: app, limit: limit), json: global.json,
                                reproducible: reproducible)
        }
    }
}

/// Selects and prints history entries; shared by the broker and journal paths. Stateless.
enum HistoryOutput {
    /// The entries of `app` (all when `nil`), the last `limit` of them (all when `nil`), in their order.
    static func select(_ entries: [JournalEntry], app: String?, limit: Int?) -> [JournalEntry] {
        let chosen = app.map { id in entries.filter { $0.app == id } } ?? entries
        guard let limit else { return chosen }
        return Array(chosen.suffix(limit))
    }

    static func print(_ entries: [JournalEntry], json: Bool, reproducible: Bool = false) {
        if reproducible {
            for line in ReproducibleJournal.canonical(entries) { Swift.print(line.jsonText) }
        } else if json {
            for entry in entries { Swift.print(entry.json.jsonText) }
        } else if entries.isEmpty {
            Swift.print("no transitions recorded")
        } else {
            for line in TransitionFormatting.lines(entries, style: .standardOutput) { Swift.print(line) }
        }
    }
}

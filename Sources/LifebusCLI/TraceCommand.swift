import ArgumentParser
import Glibc
import LifebusIO
import LifebusProtocol
import LifebusRPC
import LifebusTimeline

extension LifebusCommand {
    /// `lifebus trace`: the journal drawn as a timeline — an SVG picture, a Chrome/Perfetto trace, or text.
    struct Trace: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trace",
            abstract: "Draw the transitions as a timeline: an SVG picture, a Chrome trace (Perfetto), or text.",
            discussion: """
                Reads the running broker's history (its last 10,000 entries), or with --journal the broker's \
                journal file (its last run unless --all-runs). With neither --journal nor --socket and no broker \
                running, reads the default journal ($XDG_STATE_HOME/lifebus/journal.jsonl, else \
                /tmp/lifebus-$UID/journal.jsonl). svg: one lane per app (a sub-lane per scene), states as coloured \
                bars, each callback's time used against its budget, events as vertical lines, watchdog/jetsam/crash/\
                disconnected endings in red, marks as ticks; the time axis to scale, a long idle gap (longer than 1 s \
                and than twice the busy time, the sum of the gaps under 1 s) cut into a labelled break; --width \
                pixels wide (default 1280); a label that would overlap another moves, is shortened or is left out \
                (hover for details); open it in any browser. chrome: trace-event JSON for ui.perfetto.dev or \
                chrome://tracing. Writes to standard output unless -o is given.
                """
        )

        /// What to draw: a picture, a trace for Perfetto, or text.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case svg
            case chrome
            case text
        }

        @OptionGroup var global: GlobalOptions
        @Option(help: "Read this journal file instead of asking the broker.") var journal: String?
        @Option(name: .customLong("app"), help: "Draw only this app (repeatable).")
        var apps: [String] = []
        @Option(help: "svg, chrome or text.") var format: Format = .svg
        @Option(help: ArgumentHelp(
            "svg: the picture's width, \(Int(SVGTimeline.minimumWidth))–\(Int(SVGTimeline.maximumWidth)) "
                + "(default \(Int(SVGTimeline.defaultWidth))).",
            valueName: "pixels"
        ))
        var width: Int?
        @Option(name: [.short, .customLong("output")], help: "Write to this file.") var output: String?
        @Flag(help: "From a journal file, draw every broker run it holds, not just the last.")
        var allRuns = false

        func validate() throws {
            for app in apps { try requireAppID(app, option: "--app") }
            guard let width else { return }
            guard format == .svg else { throw ValidationError("--width is for --format svg (not \(format.rawValue))") }
            let range = Int(SVGTimeline.minimumWidth)...Int(SVGTimeline.maximumWidth)
            guard range.contains(width) else {
                throw ValidationError(
                    "--width \(width): the picture needs \(range.lowerBound) to \(range.upperBound) pixels"
                        + " (default \(Int(SVGTimeline.defaultWidth)))"
                )
            }
        }

        func run() throws {
            let entries = try journal.map(readJournal) ?? historyOrDefaultJournal()
            let timeline = Timeline(entries: entries, apps: apps)
            let text = switch format {
            case .svg: SVGTimeline(timeline, width: Double(width ?? Int(SVGTimeline.defaultWidth))).render()
            case .chrome: ChromeTrace.render(timeline) + "\n"
            case .text: TimelineText.render(timeline)
            }
            guard let output else {
                print(text, terminator: "")
                return
            }
            do {
                try TextFile.write(text, to: output)
            } catch {
                StandardError.writeLine("lifebus: \(error)")
                throw CLIExitStatus.conditionNotMet
            }
        }

        /// The broker's history; with no socket named and no broker running, the default journal instead.
        private func historyOrDefaultJournal() throws -> [JournalEntry] {
            do {
                return try BrokerHistory.fetch(socketPath: global.socketPath)
            } catch CLIExitStatus.unreachable where global.socket == nil {
                let path = BrokerJournalPath.resolve(environment: ProcessEnvironment.current, uid: getuid())
                StandardError.writeLine("lifebus: drawing the last run in the default journal \(path) instead")
                return try readJournal(path)
            }
        }

        private func readJournal(_ path: String) throws -> [JournalEntry] {
            let entries = try JournalReader.entriesForCommand(path: path)
            return allRuns ? entries : JournalEntries.lastRun(entries)
        }
    }
}

import ArgumentParser
import Glibc
import LifebusIO
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus watch`: follows the broker as an observer, one line per transition or mark, until interrupted.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Print one line per transition and mark as it happens, until interrupted (Ctrl-C: exit 0).",
            discussion: "Exit 3 when the broker cannot be reached or goes away."
        )

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let printer = WatchPrinter(json: global.json, style: .standardOutput)
            try BrokerCall.run(
                path: global.socketPath,
                json: global.json,
                role: .observer,
                endOnInterrupt: true,
                onRequest: { request, _ in printer.received(request) },
                body: { _, _, _ in printer.started() }
            )
        }
    }
}

/// Prints what an observer receives, a line at a time and flushed at once (the reader may be a pipe).
///
/// Bound to the command's loop thread. Ignores notifications other than `transition` and `mark`, and ones whose
/// params do not parse (reported once each on standard error).
final class WatchPrinter {
    private let json: Bool
    private let style: TerminalStyle
    private let table = TextTable(columns: TransitionFormatting.columns)

    init(json: Bool, style: TerminalStyle) {
        self.json = json
        self.style = style
    }

    func started() {
        guard !json else { return }
        emit(table.headerLine(style: style))
    }

    func received(_ request: RPCRequest) {
        guard request.method == LifebusMethod.transition || request.method == LifebusMethod.mark else { return }
        do throws(RPCError) {
            let params = request.params ?? .null
            let entry: JournalEntry = request.method == LifebusMethod.transition
                ? .transition(try TransitionRecord(json: params))
                : .mark(try MarkRecord(json: params))
            emit(json ? entry.json.jsonText : table.line(TransitionFormatting.cells(entry), style: style))
        } catch {
            StandardError.writeLine("lifebus: ignored a malformed \(request.method) notification: \(error.message)")
        }
    }

    private func emit(_ line: String) {
        print(line)
        fflush(nil)
    }
}

import LifebusLifecycle
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// The text people read: a transition row shows latency = answered − sent, the handler time, budget and outcome;
/// colour appears only when asked for.
@Suite struct FormattingTests {
    @Test func aTransitionRowShowsItsTimesAndOutcome() {
        let cells = TransitionFormatting.cells(JournalReaderTests.transition).map(\.text)
        #expect(cells == [
            "1", "10.625", "com.example.A", "didEnterBackground", "inactive → background", "2.500", "2.250",
            "5000", "ok", "home",
        ])
    }

    @Test func anUnansweredEndingShowsDashes() {
        let cells = TransitionFormatting.cells(JournalReaderTests.other).map(\.text)
        #expect(cells[3] == "(none)")
        #expect(cells[5] == "-")
        #expect(cells[6] == "-")
        #expect(cells[8] == "jetsam")
        #expect(cells[9] == "")
    }

    @Test func aMarkRowShowsItsNameAndData() {
        let cells = TransitionFormatting.cells(.mark(JournalReaderTests.mark)).map(\.text)
        #expect(cells[3] == "mark state-saved")
        #expect(cells[9] == #"{"bytes":12}"#)
    }

    @Test func aScaledBudgetKeepsItsFraction() {
        #expect(TransitionFormatting.budget(50) == "50")
        #expect(TransitionFormatting.budget(50.5) == "50.500")
    }

    @Test func outcomesAreColouredByGravity() {
        #expect(TransitionFormatting.colour(of: .ok) == .green)
        #expect(TransitionFormatting.colour(of: .late) == .yellow)
        for ending: TransitionOutcome in [.watchdog, .crashed, .killed, .jetsam] {
            #expect(TransitionFormatting.colour(of: ending) == .red)
        }
    }

    @Test func aPlainTableAlignsColumnsWithoutEscapes() {
        let lines = TransitionFormatting.table([JournalReaderTests.transition, JournalReaderTests.other])
            .render(style: .plain)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { !$0.contains("\u{1B}") })
        let outcomeColumn = lines[0].firstRange(of: "outcome")!.lowerBound.utf16Offset(in: lines[0])
        #expect(lines[1].utf16Offset(ofFirst: "ok") == outcomeColumn)
        #expect(lines[2].utf16Offset(ofFirst: "jetsam") == outcomeColumn)
    }

    @Test func colourIsOnOnlyForATerminalWithoutNoColor() {
        #expect(TerminalStyle.decide(isTerminal: true, environment: [:]).colours)
        #expect(!TerminalStyle.decide(isTerminal: false, environment: [:]).colours)
        #expect(!TerminalStyle.decide(isTerminal: true, environment: ["NO_COLOR": ""]).colours)
        #expect(TerminalStyle(colours: true).paint("ok", .green) == "\u{1B}[32mok\u{1B}[0m")
        #expect(TerminalStyle.plain.paint("ok", .green) == "ok")
    }

    @Test func aFireReportSummarisesThenTabulates() {
        let result = FireResult(
            eventID: 3, event: "home", completed: true, transitions: [JournalReaderTests.transition])
        let text = FireRunner.describe(result, style: .plain)
        #expect(text.hasPrefix("event 3: home — 1 transition\n"))
        #expect(text.contains("didEnterBackground"))
        let accepted = FireResult(eventID: 4, event: "call", completed: false)
        #expect(FireRunner.describe(accepted, style: .plain)
                == "event 4 (call) accepted; not waiting for its transitions")
    }

    @Test func aStatusReportShowsTheDeviceAndEachApp() {
        let status = StatusResult(
            profile: .ios7, locked: false, call: .ringing, alert: nil, foreground: "com.example.A",
            apps: [AppStatus(id: "com.example.A", pid: 99, state: .inactive, sinceMs: 1.5, connected: true)]
        )
        let lines = StatusFormatting.describe(status, style: .plain).split(separator: "\n").map(String.init)
        #expect(lines[0] == "profile ios7  locked no  call ringing  alert none  foreground com.example.A")
        #expect(lines[2].hasPrefix("com.example.A"))
        #expect(lines[2].contains(" 99  inactive"))
    }

    @Test func aWaitTimeoutNamesTheCurrentStateAndLastTransitions() {
        let error = RPCError(
            .timedOut, "timed out",
            data: ["state": "background", "transitions": [JournalReaderTests.transition.json]]
        )
        let text = WaitReport.timedOut(error, params: WaitParams(app: "com.example.A", state: .active, timeoutMs: 50))
        #expect(text.hasPrefix("timed out after 50.000 ms waiting for com.example.A to be active; it is background"))
        #expect(text.contains("inactive → background"))
    }
}

extension String {
    fileprivate func utf16Offset(ofFirst text: String) -> Int? {
        firstRange(of: text)?.lowerBound.utf16Offset(in: self)
    }
}

@Suite struct CLIHelpTests {
    @Test func aMistypedSubcommandGetsASuggestionAndATieGetsNone() {
        #expect(CommandSuggestion.hint(for: ["fier"], root: LifebusCommand.self) == "Did you mean 'lifebus fire'?")
        #expect(CommandSuggestion.hint(for: ["fire", "hom"], root: LifebusCommand.self)
            == "Did you mean 'lifebus fire home'?")
        #expect(CommandSuggestion.hint(for: ["fire", "--json", "home"], root: LifebusCommand.self) == nil)
        #expect(CommandSuggestion.hint(for: ["zzzzzzzz"], root: LifebusCommand.self) == nil)
        #expect(SpellingSuggestion.closest(to: "ios8", among: ["ios3", "ios4", "ios7"]) == nil)
    }

    @Test func subscribeBudgetsPrintWholeOrWithAtMostThreeDecimals() {
        #expect(SubscribeDelegate.wholeOrFraction(5000) == .integer(5000))
        #expect(SubscribeDelegate.wholeOrFraction(1988.2575339999999) == .double(1988.258))
        #expect(SubscribeDelegate.wholeOrFraction(49.9999999) == .integer(50))
    }

    @Test func subscribeRefusesAnUnknownBackgroundModeListingTheKnownOnes() {
        #expect(CLIUsage.exitStatus(of: ["subscribe", "--id", "com.x", "--background-mode", "audoi"]) == 2)
        #expect(CLIUsage.exitStatus(of: ["subscribe", "--id", "com.x", "--background-mode", "audio", "--", "true"])
            == nil)
    }
}

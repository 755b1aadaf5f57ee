import LifebusJSON
import LifebusTimeline
import Testing

/// On a manual clock that did not advance, many journal entries share one instant; the text timeline prints them in
/// journal order (`seq`), not grouped by kind.
@Suite struct TimelineTextOrderTests {
    /// A saved state (mark), then jetsam, then the relaunch's callbacks and the restoring mark, all at 100 ms.
    static let journal = [
        #"{"type":"transition","seq":1,"app":"A","pid":7,"callback":"didFinishLaunching","cause":{"eventID":1,"#
            + #""event":"launch A"},"from":"notRunning","to":"inactive","firedMs":0,"sentMs":0,"answeredMs":0,"#
            + #""handlerMs":0,"budgetMs":20000,"outcome":"ok","wallMs":1}"#,
        #"{"type":"mark","seq":2,"app":"A","pid":7,"name":"saved","data":{},"atMs":100,"wallMs":2}"#,
        #"{"type":"transition","seq":3,"app":"A","pid":7,"callback":null,"cause":{"eventID":2,"#
            + #""event":"memory-warning --level critical"},"from":"inactive","to":"notRunning","firedMs":100,"#
            + #""sentMs":100,"answeredMs":null,"handlerMs":null,"budgetMs":0,"outcome":"jetsam","wallMs":3}"#,
        #"{"type":"transition","seq":4,"app":"A","pid":8,"callback":"didFinishLaunching","cause":{"eventID":3,"#
            + #""event":"launch A"},"from":"notRunning","to":"inactive","firedMs":100,"sentMs":100,"answeredMs":100,"#
            + #""handlerMs":0,"budgetMs":20000,"outcome":"ok","wallMs":4}"#,
        #"{"type":"mark","seq":5,"app":"A","pid":8,"name":"restored","data":{},"atMs":100,"wallMs":5}"#,
    ]

    @Test func sameInstantEntriesPrintInJournalOrder() throws {
        let entries = try Self.journal.compactMap { try JournalEntries.decode(try JSONParser.parse($0)) }
        let lines = TimelineText.render(Timeline(entries: entries)).split(separator: "\n").map(String.init)
        let lane = lines.drop { $0 != "A:" }
        let atHundred = lane.filter { $0.hasPrefix("         100  ") }.map { String($0.dropFirst(14)) }
        #expect(atHundred == [
            "mark saved",
            "ENDED jetsam: killed for memory",
            "didFinishLaunching notRunning → inactive: 0 ms of 20000 ms budget, ok (launch A)",
            "mark restored",
        ], "\(lines)")
    }
}

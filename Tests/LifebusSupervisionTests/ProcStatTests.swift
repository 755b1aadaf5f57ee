import LifebusSupervision
import Testing

/// `/proc/PID/stat` is parsed from the last `)`, whatever the command name holds, into the fields the supervisor
/// and the memory meter use; a line that is not one parses to nothing.
struct ProcStatTests {
    static let line = "4242 (a) b (c) d) S 17 4242 4242 0 -1 4194560 1234 0 56 0 3 4 0 0 20 0 1 0 987654 "
        + "12345678 321 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"

    @Test func theFieldsAreCountedFromTheLastParenthesis() throws {
        let stat = try #require(ProcStat(pid: 4242, text: Array(Self.line.utf8)))
        #expect(stat.state == "S")
        #expect(stat.parent == 17)
        #expect(stat.group == 4242)
        #expect(stat.faults == 1234 + 56)
        #expect(stat.startTime == 987_654)
        #expect(stat.residentPages == 321)
    }

    @Test(arguments: ["", "4242 (a) S 17", "4242 (a) S x 4242 4242 0 -1 4194560 1234 0 56 0 3 4 0 0 20 0 1 0 9 1 2"])
    func aTruncatedOrBadLineIsNotAStat(_ text: String) {
        #expect(ProcStat(pid: 4242, text: Array(text.utf8)) == nil)
    }
}

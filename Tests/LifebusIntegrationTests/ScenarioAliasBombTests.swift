import Glibc
import Testing

/// A 569-byte "billion laughs" (nine levels of aliases of aliases, 9⁹ strings once expanded) is refused at its first
/// anchor, with its place, before any tree is built: quickly and in bounded memory (it used to take gigabytes and
/// abort).
@Suite struct ScenarioAliasBombTests {
    @Test func anAliasBombIsRefusedAtItsFirstAnchorQuicklyInBoundedMemory() throws {
        let file = "\(ScenarioRunTests.root)/Tests/Fixtures/scenarios/alias-bomb.yaml"
        let start = WaitNoticeTests.now()
        let child = try ChildProcess("/usr/bin/time", ["-v", "\(ChildProcess.productsFolder)/lifebus", "run", file])
        let err = child.stderr.readAll(timeout: .seconds(20))
        let status = child.wait()
        let seconds = WaitNoticeTests.now() - start
        #expect(err.contains("\(file):9:14: anchors (&NAME) are not supported in scenario files"), "\(err)")
        #expect(err.contains("Exit status: 4"), "\(err)")
        #expect(status == 4)
        #expect(seconds < 1, "refused in \(seconds) s")
        let line = err.split(separator: "\n").first { $0.contains("Maximum resident set size (kbytes):") }
        let kilobytes = line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? Int.max
        #expect(kilobytes < 50 * 1024, "max RSS of lifebus run: \(kilobytes) KiB")
    }
}

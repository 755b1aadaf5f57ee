import Glibc
import LifebusTesting
import Testing
import XCTest

/// The kit in XCTest test cases (swift-corelibs-xctest runs them under `swift test`): one that passes, and one
/// that must fail — its `expect` reported with `XCTFail` at the caller's file and line. Corelibs XCTest has no
/// `XCTExpectFailure`, so the failing case runs only in a child process (`XCTestReportingTests`), which checks what
/// XCTest printed and that the run failed; in the suite's own run it skips.
final class KitInXCTestCase: XCTestCase {
    /// The variable under which the failing case runs instead of skipping.
    static let mustFailVariable = "LIFEBUS_KIT_XCTEST_MUST_FAIL"

    @MainActor func testAnAnsweredCallSuspendsNotes() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.fire(.call(.ring))
        try await bus.fire(.call(.answer))
        try await bus.expect(app, callbacks: [.willResignActive, .didEnterBackground])
        try await bus.expect(app, state: .suspended)
    }

    @MainActor func testAMissingMarkFailsAtItsLine() async throws {
        try XCTSkipUnless(getenv(Self.mustFailVariable) != nil, "run in a child process by XCTestReportingTests")
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.expect(app, mark: "never-made")  // XCTestReportingTests.failingLine
        print("the test went on after the failure")
    }
}

/// Runs `KitInXCTestCase.testAMissingMarkFailsAtItsLine` in a child process of the test bundle (XCTest alone, that
/// one case) and checks the failure XCTest reported.
@Suite(.hangGuard)
struct XCTestReportingTests {
    /// The line of the failing `expect` above.
    static let failingLine = 27

    @Test func aFailedExpectationInAnXCTestCaseIsAnXCTestFailureAtTheCallersLine() throws {
        let command = "\(KitInXCTestCase.mustFailVariable)=1 '\(TestMachine.testBundle)' "
            + "LifebusTestingTests.KitInXCTestCase/testAMissingMarkFailsAtItsLine 2>&1"
        let pipe = try #require(popen(command, "r"))
        var output = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let status = pclose(pipe)
        #expect(status != 0, "the XCTest run failed:\n\(output)")
        #expect(output.contains("XCTestReportingTests.swift:\(Self.failingLine): error:"), "\(output)")
        #expect(output.contains("com.example.Notes did not mark \"never-made\""), "\(output)")
        #expect(output.contains("last marks: none"), "the report of the app:\n\(output)")
        #expect(output.contains("the test went on after the failure"), "\(output)")
        #expect(output.contains("Executed 1 test, with 1 failure"), "\(output)")
    }
}

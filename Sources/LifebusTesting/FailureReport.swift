import Synchronization

// A build with the Swift runtime linked statically (`swift build -c release --static-swift-stdlib`, which
// `scripts/check-install` runs package-wide) has neither framework: the toolchain ships no static Testing or XCTest.
// The kit then still builds, and an expectation that fails throws (the third way below). Every test build has both.
#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Where a test wrote an expectation, in the terms of both test frameworks: Swift Testing's `SourceLocation` (built
/// from strings) and XCTest's `XCTFail(_:file:line:)`, which takes only a `StaticString` — hence the caller's
/// `#fileID`/`#filePath`/`#line`/`#column` travel as such (the convention of XCTest-era assertion libraries).
/// A plain value.
struct ExpectationCaller: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// Where the report says the expectation is: `FILE:LINE:COLUMN` as Swift Testing prints a `SourceLocation`.
    var description: String { "\(fileID):\(line):\(column)" }

    #if canImport(Testing)
        /// The location Swift Testing records an issue at.
        var sourceLocation: SourceLocation {
            SourceLocation(
                fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)
            )
        }
    #endif
}

/// Reports a failed expectation where the running test framework shows it: in a Swift Testing test (`Test.current`)
/// as an `Issue` at the caller's location; otherwise, when XCTest is running a test case on this thread, with
/// `XCTFail` at the caller's file and line; otherwise (plain code, no test) by throwing `LifebusTestBusError` with the
/// report prefixed with the location, so no failure is ever lost. Stateless but for the XCTest failure counter.
///
/// Cost: the kit links XCTest (and through it Foundation) where the toolchain has it; a Linux test bundle links both
/// already (SwiftPM's test runner is XCTest's), and nothing of it runs unless an expectation fails.
enum FailureReport {
    static func record(_ text: String, at caller: ExpectationCaller) throws {
        #if canImport(Testing)
            if Test.current != nil {
                Issue.record(Comment(rawValue: text), sourceLocation: caller.sourceLocation)
                return
            }
        #endif
        #if canImport(XCTest)
            // XCTFail records only inside a running test case and says nothing otherwise: the counter tells.
            let before = XCTestFailureCounter.shared.count
            XCTFail(text, file: caller.filePath, line: caller.line)
            if XCTestFailureCounter.shared.count != before { return }
        #endif
        throw LifebusTestBusError("\(caller.description): \(text)")
    }
}

#if canImport(XCTest)
    /// Counts the failures XCTest records (an observer registered once, for the life of the process), so the kit
    /// knows whether its `XCTFail` reached a running test case. Shared; the count only grows.
    final class XCTestFailureCounter: XCTestObservation, Sendable {
        /// The one counter, registered with XCTest's observation center when first used.
        static let shared: XCTestFailureCounter = {
            let counter = XCTestFailureCounter()
            XCTestObservationCenter.shared.addTestObserver(counter)
            return counter
        }()

        private let failures = Mutex(0)

        /// The failures recorded since the counter was registered.
        var count: Int { failures.withLock { $0 } }

        func testCase(
            _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
            atLine lineNumber: Int
        ) {
            failures.withLock { $0 += 1 }
        }
    }
#endif

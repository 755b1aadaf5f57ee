import Testing

@testable import LifebusMCP

/// `initialize` answers with the client's revision when the server speaks it, else with the newest it speaks.
@Suite struct MCPVersionTests {
    @Test(arguments: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
    func answersWithARevisionTheServerSpeaks(requested: String) {
        #expect(MCPVersion.negotiate(requested) == requested)
    }

    @Test func answersAnUnknownOrMissingRevisionWithTheNewest() {
        #expect(MCPVersion.negotiate("2099-01-01") == "2025-11-25")
        #expect(MCPVersion.negotiate(nil) == "2025-11-25")
    }
}

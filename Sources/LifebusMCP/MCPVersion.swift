/// The MCP protocol revisions this server speaks and how `initialize` picks one. Stateless.
///
/// The server answers `initialize` with the client's requested revision when it speaks it, else with the newest
/// it speaks (the client then decides whether to go on), as the MCP lifecycle specifies.
enum MCPVersion {
    /// Newest first.
    static let supported = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    static var latest: String { supported[0] }

    /// The revision to answer with for a client that asked for `requested`.
    static func negotiate(_ requested: String?) -> String {
        guard let requested, supported.contains(requested) else { return latest }
        return requested
    }
}

import LifebusProtocol

/// `Codable` twins of four wire messages (compiler-synthesised conformances, so no validation: the cheapest a
/// `Codable` conversion could be — the real types would add their checks on top). Plain values.
enum CodableMessages {
    struct AppDeclaration: Codable {
        var id: String
        var exitsOnSuspend: Bool?
        var backgroundModes: [String]?
        var launchInBackground: Bool?
    }

    struct Hello: Codable {
        var role: String
        var protocolVersion: Int
        var app: AppDeclaration?
        var client: String?
    }

    struct CallbackResult: Codable {
        var handlerMs: Double?
        var handlerFailed: Bool?
    }

    struct Fire: Codable {
        var event: String
        var action: String?
        var app: String?
        var level: String?
        var byUser: Bool
        var wait: Bool
    }

    struct Cause: Codable {
        var eventID: Int64
        var event: String
    }

    struct Transition: Codable {
        var type: String
        var seq: Int64
        var app: String
        var pid: Int32?
        var callback: String?
        var cause: Cause?
        var from: String
        var to: String
        var firedMs: Double?
        var sentMs: Double
        var answeredMs: Double?
        var handlerMs: Double?
        var budgetMs: Double
        var outcome: String
        var handlerFailed: Bool
        var wallMs: Int64
    }
}

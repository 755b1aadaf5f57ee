import LifebusIO
import Synchronization

/// What `lifebus subscribe` says on stderr about its connection: each new situation once (waiting for a broker,
/// the id in use, connected, the broker gone), not every retry; and remembers whether subscribe ever connected, and
/// the last reason it could not, for a program that ends before the first connection (exit 3, never 0).
///
/// Owns the last line printed and the connection facts, behind mutexes (the SDK calls `printer` on its I/O thread).
final class SubscribeDiagnostics: Sendable {
    private let appID: String
    private let last = Mutex<String?>(nil)
    /// Whether a connection was ever made, and the last reason one could not be (the SDK's words, without retry).
    private let connection = Mutex<(connected: Bool, failure: String?)>((false, nil))

    init(appID: String) {
        self.appID = appID
    }

    /// The SDK's diagnostics hook.
    var printer: @Sendable (String) -> Void {
        { [self] line in self.print(line) }
    }

    /// Whether subscribe ever connected, and the last reason a connection could not be made (`nil`: none failed).
    var connectionFacts: (connected: Bool, failure: String?) {
        connection.withLock { $0 }
    }

    private func print(_ line: String) {
        remember(line)
        let text = Self.situation(of: line)
        let isNew = last.withLock { last in
            guard last != text else { return false }
            last = text
            return true
        }
        if isNew { StandardError.writeLine("lifebus subscribe (\(appID)): \(text)") }
    }

    private func remember(_ line: String) {
        let text = line.hasPrefix("lifebus: ") ? String(line.dropFirst("lifebus: ".count)) : line
        connection.withLock { facts in
            if text.hasPrefix("connected to ") {
                facts.connected = true
            } else if let retry = text.firstRange(of: "; retrying in ") {
                facts.failure = String(text[..<retry.lowerBound])
            }
        }
    }

    /// The SDK's line without its retry delay and prefix, worded for a person waiting.
    static func situation(of line: String) -> String {
        var text = line.hasPrefix("lifebus: ") ? String(line.dropFirst("lifebus: ".count)) : line
        for marker in ["; retrying in ", "; reconnecting in "] {
            if let range = text.firstRange(of: marker) {
                text = String(text[..<range.lowerBound]) + "; waiting"
            }
        }
        if text.hasPrefix("cannot reach the broker at ") {
            text += " (start it with `lifebusd`)"
        } else if text.hasPrefix("the broker connection ended") {
            text = "the broker went away; waiting for it to come back"
        }
        return text
    }
}

import LifebusIO
import Synchronization

/// What `lifebus subscribe` says on stderr about its connection: each new situation once (waiting for a broker,
/// the id in use, connected, the broker gone), not every retry.
///
/// Owns the last line printed, behind a mutex (the SDK calls `printer` on its I/O thread).
final class SubscribeDiagnostics: Sendable {
    private let appID: String
    private let last = Mutex<String?>(nil)

    init(appID: String) {
        self.appID = appID
    }

    /// The SDK's diagnostics hook.
    var printer: @Sendable (String) -> Void {
        { [self] line in self.print(line) }
    }

    private func print(_ line: String) {
        let text = Self.situation(of: line)
        let isNew = last.withLock { last in
            guard last != text else { return false }
            last = text
            return true
        }
        if isNew { StandardError.writeLine("lifebus subscribe (\(appID)): \(text)") }
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

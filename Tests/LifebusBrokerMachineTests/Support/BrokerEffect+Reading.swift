import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// Ways for a test to read a step's effects without matching every case.
extension [BrokerEffect] {
    /// A callback request the machine sent.
    struct SentCallback {
        let session: SessionID
        let method: String
        let app: AppID
        let id: CallbackID
    }

    var callbacks: [SentCallback] {
        compactMap { effect in
            guard case .sendCallback(let session, let params, let app, let id) = effect else { return nil }
            return SentCallback(session: session, method: params.callback.rawValue, app: app, id: id)
        }
    }

    /// The answer given to `ticket`, if any (a fire's written result read as its value).
    func reply(to ticket: Ticket) -> Result<JSONValue, RPCError>? {
        for effect in self {
            switch effect {
            case .reply(ticket, let result):
                return result
            case .replyFire(ticket, let result):
                var text: [UInt8] = []
                result.write(to: &text)
                return (try? JSONParser.parse(text)).map { .success($0) }
            case .replyPing(ticket, let result):
                var text: [UInt8] = []
                result.write(to: &text)
                return (try? JSONParser.parse(text)).map { .success($0) }
            default:
                continue
            }
        }
        return nil
    }

    /// The error name `ticket` was answered with (`nil` for a success or no answer).
    func errorName(of ticket: Ticket) -> String? {
        guard case .failure(let error)? = reply(to: ticket) else { return nil }
        return error.name
    }

    /// Whether `ticket` was answered with a success.
    func succeeded(_ ticket: Ticket) -> Bool {
        if case .success? = reply(to: ticket) { return true }
        return false
    }

    /// The methods of the notifications sent to `session`, and their error names for `lifebus.error`.
    func notifications(to session: SessionID) -> [String] {
        compactMap { effect in
            guard case .notify(session, let method, let params) = effect else { return nil }
            guard method == LifebusMethod.error else { return method }
            return params["data"]?["name"]?.stringValue ?? params["name"]?.stringValue ?? method
        }
    }

    /// How `session` was closed, if it was.
    func closing(of session: SessionID) -> BrokerEffect.Closing? {
        for case .close(session, let closing) in self { return closing }
        return nil
    }

    /// Whether the effects ask for the end-of-turn journal commit.
    var asksForCommit: Bool {
        contains { if case .commitJournal = $0 { true } else { false } }
    }
}

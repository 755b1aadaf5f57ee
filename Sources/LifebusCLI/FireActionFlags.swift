public import ArgumentParser
public import LifebusLifecycle
import LifebusProtocol

/// The action flags of `lifebus fire call`: at most one (ArgumentParser's exclusivity), none meaning the broker's
/// default (ring). Each case is spelt as the wire's `FireParams.Action` of the same name.
enum CallActionFlag: String, EnumerableFlag {
    case answer
    case decline
    case end

    static func help(for value: Self) -> ArgumentHelp? {
        switch value {
        case .answer: "Answer the ringing call."
        case .decline: "Decline the ringing call."
        case .end: "End the call in progress."
        }
    }
}

/// The action flags of `lifebus fire sms`: at most one, none meaning the broker's default (show).
enum SMSActionFlag: String, EnumerableFlag {
    case reply
    case dismiss
    case banner

    static func help(for value: Self) -> ArgumentHelp? {
        switch value {
        case .reply: "Reply to the alert (the Messages app comes to the front)."
        case .dismiss: "Dismiss the alert."
        case .banner: "Show the SMS as a banner, which does not interrupt the app."
        }
    }
}

/// The action flags of `lifebus fire calendar`: at most one, none meaning the broker's default (show).
enum CalendarActionFlag: String, EnumerableFlag {
    case view
    case dismiss

    static func help(for value: Self) -> ArgumentHelp? {
        switch value {
        case .view: "View the event (the Calendar app comes to the front)."
        case .dismiss: "Dismiss the alert."
        }
    }
}

extension RawRepresentable where Self: EnumerableFlag, RawValue == String {
    /// The wire action of the same spelling (every flag names one: `FireActionFlagTests` drives each).
    var wireAction: FireParams.Action? { FireParams.Action(rawValue: rawValue) }
}

/// `--level` of `lifebus fire memory-warning`: its values come from `MemoryLevel.allCases` (the help lists them).
extension MemoryLevel: ExpressibleByArgument {}

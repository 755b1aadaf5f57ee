public import LifebusLifecycle
public import LifebusProtocol

/// The small vocabulary the row table's predicates are written in.
extension Observation {
    /// A transition with this callback (`nil`: none) from one of `from` (any when `nil`) to `to` (any when `nil`).
    public func moved(_ callback: LifecycleCallback?, from: Set<LifecycleState>? = nil, to: LifecycleState? = nil)
        -> Bool
    {
        guard let transition, transition.callback == callback else { return false }
        if let from, !from.contains(transition.from) { return false }
        if let to, transition.to != to { return false }
        return true
    }

    /// A transition that ended so.
    public func ended(_ outcome: TransitionOutcome) -> Bool {
        transition?.outcome == outcome
    }

    /// Caused by `launch` of any app.
    public var byLaunch: Bool {
        if case .launch = event { return true }
        return false
    }

    /// Caused by `activate` of any app.
    public var byActivate: Bool {
        if case .activate = event { return true }
        return false
    }

    /// Caused by `terminate` of any app, by the user or not.
    public func byTerminate(byUser: Bool) -> Bool {
        if case .terminate(_, let user) = event { return user == byUser }
        return false
    }

    /// An app leaving the front as it does on `home`: `willResignActive` from `active`.
    public var resigned: Bool { moved(.willResignActive, from: [.active], to: .inactive) }

    /// An app leaving the foreground: `didEnterBackground` (multitasking) or `willTerminate` from `inactive`.
    public var left: Bool {
        moved(.didEnterBackground, from: [.inactive], to: .background)
            || moved(.willTerminate, from: [.inactive], to: .notRunning)
    }

    /// The process record's event, when the record is one.
    public var processEvent: ProcessRecord.Event? {
        if case .process(let record) = record { return record.event }
        return nil
    }
}

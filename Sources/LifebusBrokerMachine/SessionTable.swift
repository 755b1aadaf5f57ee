import LifebusLifecycle
import LifebusProtocol

/// The broker machine's admitted sessions and their indexes: each session's record (`SessionRecord`), the sessions
/// that have not said `hello` in the order they connected (`Newcomer`s, what admission weighs), the live session of
/// each connected app, and the observers.
///
/// A plain value; the machine changes it only through its methods (`admit`, `noteSpoken`, `countMessageBeforeHello`,
/// `sendAway`, `introduce`, `connect`, `disconnect`, `end`), each of which keeps the indexes in agreement (the records
/// are read-only outside them; the three indexes stay settable in the module so tests can corrupt a table, as
/// `ProcessBook`'s tables are).
/// Invariants (`invariantViolations`): an app's live session is an admitted session with the app role that is that
/// app, and every session that is an app is its live session; only app sessions are apps; each observer is an
/// admitted observer; a newcomer is listed once and is an admitted session without a role. A session sent away
/// to make room leaves the newcomers but stays admitted, without a role, until its connection ends.
struct SessionTable {
    private(set) var records: [SessionID: SessionRecord] = [:]
    /// The sessions that have not said `hello`, in the order they connected (a session leaves at its `hello`, at
    /// its end, or when sent away to make room).
    var unintroduced: [Newcomer] = []
    /// The live connection of each connected app.
    var appSessions: [AppID: SessionID] = [:]
    var observers: Set<SessionID> = []

    /// The admitted session's record; `nil` for a session never admitted or ended.
    subscript(session: SessionID) -> SessionRecord? { records[session] }

    /// The number of admitted sessions.
    var count: Int { records.count }

    /// Every admitted session, in no order.
    var ids: Dictionary<SessionID, SessionRecord>.Keys { records.keys }

    /// The live session of `app`, while it is connected.
    func session(for app: AppID) -> SessionID? { appSessions[app] }

    /// The number of connected apps.
    var appCount: Int { appSessions.count }

    /// The unintroduced sessions that have not sent a byte yet, oldest first.
    var silentSessions: [SessionID] {
        unintroduced.compactMap { $0.hasSpoken ? nil : $0.session }
    }

    /// Admits a new connection, unintroduced (`spoke`: bytes already came from it).
    mutating func admit(_ session: SessionID, identity: PeerIdentity, overTCP: Bool, spoke: Bool) {
        records[session] = SessionRecord(identity: identity, overTCP: overTCP)
        unintroduced.append(Newcomer(session: session, uid: identity.uid, hasSpoken: spoke))
    }

    /// Bytes came from an unintroduced session: it is silent no more.
    mutating func noteSpoken(_ session: SessionID) {
        guard let index = unintroduced.firstIndex(where: { $0.session == session }) else { return }
        unintroduced[index].hasSpoken = true
    }

    /// Counts a message that came before `hello` (the session has spoken); the count so far, `nil` when the session
    /// is not admitted.
    mutating func countMessageBeforeHello(_ session: SessionID) -> Int? {
        guard records[session] != nil else { return nil }
        records[session]?.messagesBeforeHello += 1
        noteSpoken(session)
        return records[session]?.messagesBeforeHello
    }

    /// An unintroduced session closed to make room: it leaves the newcomers (it stays admitted until it ends).
    mutating func sendAway(_ session: SessionID) {
        unintroduced.removeAll { $0.session == session }
    }

    /// The session said `hello` as `role`: it leaves the newcomers, and an observer joins the observers. An app
    /// becomes its app's live session by `connect`. A role is given once: an introduced session keeps its own.
    mutating func introduce(_ session: SessionID, as role: PeerRole) {
        guard let record = records[session], record.role == nil else { return }
        unintroduced.removeAll { $0.session == session }
        records[session]?.role = role
        if role == .observer { observers.insert(session) }
    }

    /// The app session `session` becomes `app`'s live session, unless it is an app already or `app` has a live
    /// session.
    mutating func connect(_ app: AppID, session: SessionID) {
        guard let record = records[session], record.role == .app, record.app == nil, appSessions[app] == nil else {
            return
        }
        records[session]?.app = app
        appSessions[app] = session
    }

    /// `app`'s live session is `app` no more (its connection was refused).
    mutating func disconnect(_ app: AppID) {
        guard let session = appSessions.removeValue(forKey: app) else { return }
        records[session]?.app = nil
    }

    /// The session's connection ended: it leaves every index. Its record as it was, `nil` when it was not admitted.
    mutating func end(_ session: SessionID) -> SessionRecord? {
        guard let record = records.removeValue(forKey: session) else { return nil }
        if record.role == nil { unintroduced.removeAll { $0.session == session } }
        observers.remove(session)
        if let app = record.app, appSessions[app] == session { appSessions[app] = nil }
        return record
    }

    /// The broken invariants, in words; empty when the indexes agree.
    var invariantViolations: [String] {
        var broken: [String] = []
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) {
            if !holds { broken.append(what()) }
        }
        for (app, session) in appSessions {
            let record = records[session]
            expect(record?.role == .app && record?.app == app, "\(app)'s live session \(session) is not its app's")
        }
        for (session, record) in records {
            if let app = record.app {
                expect(appSessions[app] == session, "session \(session) is \(app), whose live session is another")
            }
            expect(record.role == .app || record.app == nil, "session \(session) is an app without the app role")
        }
        for session in observers {
            expect(records[session]?.role == .observer, "observer \(session) is not an admitted observer")
        }
        var newcomers: Set<SessionID> = []
        for newcomer in unintroduced {
            expect(newcomers.insert(newcomer.session).inserted, "session \(newcomer.session) is a newcomer twice")
            let record = records[newcomer.session]
            expect(record != nil && record?.role == nil, "newcomer \(newcomer.session) is not an unintroduced session")
        }
        return broken
    }
}

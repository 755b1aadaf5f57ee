import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The background life on the wire (`Protocol/README.md` §10.2, §13): an app's `BGTaskScheduler` requests into the
/// core, and the core's task, push and protected-data records into the journal, the observers and (protected data)
/// every connected app. A refusal is `lifebus.EventRejected` with the rejection's reason and no `eventID`.
extension BrokerMachine {
    mutating func registerBackgroundTask(
        _ params: RegisterBackgroundTaskParams, from session: SessionID, ticket: Ticket,
        into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = try appOf(session)
        try refuse(feedDevice(.registerBackgroundTask(app, identifier: params.identifier), into: &effects))
        effects.append(.reply(ticket, .success(EmptyResult.json)))
    }

    mutating func submitBackgroundTask(
        _ params: SubmitBackgroundTaskParams, from session: SessionID, ticket: Ticket,
        into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = try appOf(session)
        let request = BackgroundTaskRequest(
            identifier: params.identifier, kind: params.kind,
            earliestBegin: params.earliestBeginAfter.map { lifecycleNow + $0 },
            requiresExternalPower: params.requiresExternalPower,
            requiresNetworkConnectivity: params.requiresNetworkConnectivity)
        try refuse(feedDevice(.submitBackgroundTask(app, request), into: &effects))
        effects.append(.reply(ticket, .success(EmptyResult.json)))
    }

    mutating func setTaskCompleted(
        _ params: SetTaskCompletedParams, from session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = try appOf(session)
        let input = Input.backgroundTaskCompleted(app, identifier: params.identifier, success: params.success)
        try refuse(feedDevice(input, into: &effects))
        effects.append(.reply(ticket, .success(EmptyResult.json)))
    }

    /// The first of the device's refusals of an app's request, as its error.
    private func refuse(_ rejections: [Rejection]) throws(RPCError) {
        guard let refusal = rejections.first else { return }
        throw RPCError(.eventRejected, "\(refusal)", data: ["reason": .string(refusal.reason.rawValue)])
    }

    /// A task's step: journaled and sent to observers.
    mutating func recordTask(_ step: TaskRecord, into effects: inout [BrokerEffect]) {
        let record = BackgroundTaskRecord(
            seq: journal.lastSequence + 1, app: step.app.rawValue, pid: pid(of: step.app),
            identifier: step.identifier, kind: step.kind,
            event: BackgroundTaskRecord.Event(rawValue: step.event.rawValue) ?? .cancelled, success: step.success,
            atMs: milliseconds(step.at), wallMs: wallMs)
        appendToJournal(.task(record), into: &effects)
        notifyObservers(LifebusMethod.task, record.json, into: &effects)
    }

    /// A push's step: journaled and sent to observers.
    mutating func recordPush(_ step: PushRecord, into effects: inout [BrokerEffect]) {
        let record = PushDeliveryRecord(
            seq: journal.lastSequence + 1, app: step.app.rawValue, pid: pid(of: step.app),
            event: PushDeliveryRecord.Event(rawValue: step.event.rawValue) ?? .delivered, result: step.result,
            presentation: step.presentation, payload: step.payload, atMs: milliseconds(step.at), wallMs: wallMs)
        appendToJournal(.push(record), into: &effects)
        notifyObservers(LifebusMethod.push, record.json, into: &effects)
    }

    /// Protected data changed: journaled, sent to observers, and told to every connected app
    /// (`protectedDataChanged`), before any callback the same feed sends after it.
    mutating func protectedDataChanged(available: Bool, into effects: inout [BrokerEffect]) {
        let record = ProtectedDataRecord(
            seq: journal.lastSequence + 1, available: available, atMs: milliseconds(lifecycleNow), wallMs: wallMs)
        appendToJournal(.protectedData(record), into: &effects)
        notifyObservers(ProtectedDataRecord.type, record.json, into: &effects)
        let params = ProtectedDataParams(available: available).json
        for session in sessions.appSessions.values.sorted(by: { $0.rawValue < $1.rawValue }) {
            effects.append(.notify(session, method: LifebusMethod.protectedDataChanged, params: params))
        }
    }

    /// An app that connects while protected data is unavailable is told so before its first callback.
    mutating func tellProtectedData(to session: SessionID, into effects: inout [BrokerEffect]) {
        guard !device.isProtectedDataAvailable else { return }
        let params = ProtectedDataParams(available: false).json
        effects.append(.notify(session, method: LifebusMethod.protectedDataChanged, params: params))
    }
}

import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The background life's requests as the machine serves them (`Protocol/README.md` §10.2, §11.2a): who may send
/// each, how their params are checked, and a device refusal answered `lifebus.EventRejected` with its reason.
@Suite struct BackgroundRequestsTests {
    @Test(arguments: ["registerBackgroundTask", "submitBackgroundTask", "setTaskCompleted"])
    func aTaskRequestIsAnAppsAlone(method: String) {
        var (harness, _) = MachineHarness.notesLaunched()
        let (controller, _) = harness.introduce("controller")
        let (ticket, effects) = harness.request(controller, method, #"{"identifier":"com.example.Notes.refresh"}"#)
        #expect(effects.errorName(of: ticket) == "lifebus.NotAllowedForRole")
    }

    @Test func protectedDataIsAvailableOnAFreshDeviceAndAskedByControllersAndObserversOnly() throws {
        var (harness, app) = MachineHarness.notesLaunched()
        for role in ["controller", "observer"] {
            let (peer, _) = harness.introduce(role)
            let (ticket, effects) = harness.request(peer, "protectedData")
            #expect(try effects.reply(to: ticket)?.get() == ["available": true])
        }
        let (refused, effects) = harness.request(app, "protectedData")
        #expect(effects.errorName(of: refused) == "lifebus.NotAllowedForRole")
    }

    @Test(arguments: [
        ("registerBackgroundTask", #"{"identifier":"a b"}"#, "identifier"),
        ("submitBackgroundTask", #"{"identifier":"com.x.refresh","kind":"sometime"}"#, "kind"),
        ("submitBackgroundTask", #"{"identifier":"com.x.refresh","kind":"appRefresh","earliestBeginAfter":-1}"#,
         "earliestBeginAfter"),
        ("setTaskCompleted", #"{"identifier":"com.x.refresh"}"#, "success"),
    ])
    func badParamsAreRefusedNamingTheMember(method: String, params: String, member: String) throws {
        var (harness, app) = MachineHarness.notesLaunched()
        let (ticket, effects) = harness.request(app, method, params)
        guard case .failure(let error)? = effects.reply(to: ticket) else {
            Issue.record("\(method) \(params) was not refused")
            return
        }
        #expect(error.name == "jsonrpc.InvalidParams")
        #expect(error.data?["field"]?.stringValue == member)
    }

    @Test func aRegistrationUnderAProfileWithoutBGTaskSchedulerIsEventRejectedWithItsReason() throws {
        var (harness, app) = MachineHarness.notesLaunched()  // ios7: no BGTaskScheduler
        let (ticket, effects) = harness.request(app, "registerBackgroundTask", #"{"identifier":"com.x.refresh"}"#)
        guard case .failure(let error)? = effects.reply(to: ticket) else {
            Issue.record("registered under ios7")
            return
        }
        #expect(error.name == "lifebus.EventRejected")
        #expect(error.data?["reason"]?.stringValue == RejectionReason.backgroundTasksUnavailable.rawValue)
        #expect(error.data?["eventID"] == nil, "an app request, not an event")
    }
}

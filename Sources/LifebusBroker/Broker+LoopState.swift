import LifebusBrokerMachine
import LifebusCore
import LifebusIO
import LifebusRPC
import LifebusSupervision

/// The broker's per-turn state, grouped so one exclusivity decision covers it (`Broker.loopState`), and a
/// forwarding property for each member, so the driver's code names what it touches.
extension Broker {
    /// Everything a feed and its effects read and write on the loop's thread. Invariants: `feedDepth` counts the
    /// feeds performing effects; `effectBuffer` is empty between feeds; `timerArmedFor` is the instant `machineTimer`
    /// runs at, `nil` when it is idle.
    struct LoopState {
        /// Decides everything; `start()` replaces the one made at `init` with one over the journal file and the
        /// connection cap the descriptor limit allows.
        var machine: BrokerMachine
        /// Each admitted connection's JSON-RPC peer, by session.
        var peers: [SessionID: RPCPeer] = [:]
        /// The way back to each request the machine holds a ticket for.
        var responders: [Ticket: RPCResponder] = [:]
        var nextTicketNumber: UInt64 = 1
        /// Serves the machine's earliest deadline.
        var machineTimer: LoopTimer?
        /// The instant `machineTimer` is armed for (`nil`: not armed); moved by `BrokerHost.armTimer(at:)` only.
        var timerArmedFor: Instant?
        /// Feeds `commitJournal` at the end of the loop turn that asked for it.
        var journalCommitTimer: LoopTimer?
        /// Taken out whole at the start of `feed` and put back, emptied, at its end.
        var effectBuffer: [BrokerEffect] = []
        /// Supervisor reports waiting for the effects being performed to finish (`feedDepth > 0`).
        var supervisorReports: [SupervisorReport] = []
        /// How many `feed` calls are performing effects (feeds nest: a close can end a connection at once).
        var feedDepth = 0
    }

    var machine: BrokerMachine {
        _read { yield loopState.machine }
        _modify { yield &loopState.machine }
    }

    var peers: [SessionID: RPCPeer] {
        _read { yield loopState.peers }
        _modify { yield &loopState.peers }
    }

    var responders: [Ticket: RPCResponder] {
        _read { yield loopState.responders }
        _modify { yield &loopState.responders }
    }

    var nextTicketNumber: UInt64 {
        get { loopState.nextTicketNumber }
        set { loopState.nextTicketNumber = newValue }
    }

    var machineTimer: LoopTimer? {
        get { loopState.machineTimer }
        set { loopState.machineTimer = newValue }
    }

    var timerArmedFor: Instant? {
        get { loopState.timerArmedFor }
        set { loopState.timerArmedFor = newValue }
    }

    var journalCommitTimer: LoopTimer? {
        get { loopState.journalCommitTimer }
        set { loopState.journalCommitTimer = newValue }
    }

    var effectBuffer: [BrokerEffect] {
        _read { yield loopState.effectBuffer }
        _modify { yield &loopState.effectBuffer }
    }

    var supervisorReports: [SupervisorReport] {
        _read { yield loopState.supervisorReports }
        _modify { yield &loopState.supervisorReports }
    }

    var feedDepth: Int {
        get { loopState.feedDepth }
        set { loopState.feedDepth = newValue }
    }
}

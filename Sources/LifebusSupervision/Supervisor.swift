import Glibc
public import LifebusContainment
public import LifebusIO

/// The processes of the installed apps, driven by the broker machine: it sends `SupervisorCommand`s (spawn, kill,
/// freeze, thaw) and hears `SupervisorReport`s (spawned, launch failed, exited, memory samples, refused). Which
/// apps are installed is the machine's: each `spawn` carries the whole manifest, and the supervisor keeps no table.
///
/// Bound to its loop's thread. Owns the `AppProcess` of each spawned app
/// until its exit is reported, the `PeerProcess` of each app that connected on its own until `detach`, and the
/// memory sampler; with a `Containment`, the `OrphanReaper` of the orphans it adopts. Invariants: at most one process
/// per app id; every spawn is answered by `spawned` or `launchFailed`, every `spawned` by exactly one `exited`;
/// `close()` kills every spawned app (`shutdown`), whole contained run, and ends the containment's guard watch.
public final class Supervisor {
    private let loop: EventLoop
    private let socketPath: String
    private let logs: AppLogFiles
    /// The `lifebus` CLI that runs a manifest with hooks (`LaunchRequest`); `nil`: none was found.
    public let hookAdapter: String?
    private let onReport: (SupervisorReport) -> Void
    private var spawned: [String: AppProcess] = [:]
    private var attached: [String: PeerProcess] = [:]
    private var sampler: MemorySampler?
    /// `sampleMemory()` calls not answered yet (each gets a `memory` report, if only an empty one).
    private var samplesOwed = 0
    /// How every app process is contained (whole tree); `nil`: its process group only.
    public let containment: Containment?
    private var reaper: OrphanReaper?
    private var closing = false

    /// `samplePeriod` starts the memory sampler (`memory` reports); `nil` samples nothing. With `samplesOnDemand`
    /// the sampler has no timer: a round is taken by `sampleMemory()` (the broker's manual clock, whose sample
    /// periods are virtual). `containment` contains each app's whole tree (and adopts and reaps its orphans).
    /// `hookAdapter` is the `lifebus` CLI apps with hooks run under.
    public init(
        loop: EventLoop, socketPath: String, logs: AppLogFiles, samplePeriod: Duration?,
        samplesOnDemand: Bool = false, containment: Containment? = nil, hookAdapter: String? = nil,
        onReport: @escaping (SupervisorReport) -> Void
    ) throws(UVError) {
        self.loop = loop
        self.containment = containment
        self.socketPath = socketPath
        self.logs = logs
        self.hookAdapter = hookAdapter
        self.onReport = onReport
        if containment != nil {
            containment?.ownedChildren = { [weak self] in Set(self?.spawned.values.map(\.pid) ?? []) }
            reaper = try OrphanReaper(loop: loop, owned: containment?.ownedChildren ?? { [] })
        }
        if let samplePeriod {
            sampler = try MemorySampler(loop: loop, period: samplesOnDemand ? nil : samplePeriod, targets: {
                [weak self] in self?.memoryTargets ?? []
            }, onSample: { [weak self] samples in
                guard let self, !samples.isEmpty || self.samplesOwed > 0 else { return }
                self.samplesOwed = max(0, self.samplesOwed - 1)
                self.onReport(.memory(samples))
            })
        }
    }

    /// The pid of the app's process, spawned or attached.
    public func pid(of appID: String) -> Int32? {
        spawned[appID]?.pid ?? attached[appID]?.pid
    }

    /// Whether the app's process group is frozen.
    public func isFrozen(_ appID: String) -> Bool {
        spawned[appID]?.isFrozen ?? false
    }

    /// Holds the process of an app that connected on its own (its connection's socket and `SO_PEERCRED` pid);
    /// `false` when the process is gone or the app already has one.
    @discardableResult
    public func attach(appID: String, socket: Int32, pid: Int32) -> Bool {
        guard spawned[appID] == nil, attached[appID] == nil,
              let peer = PeerProcess.identify(socket: socket, pid: pid)
        else { return false }
        attached[appID] = peer
        return true
    }

    /// Lets go of an attached app's process (its connection ended).
    public func detach(appID: String) {
        attached[appID] = nil
    }

    /// SIGKILL to the process `appID` connected from on its own, through the hold taken at `attach` (so never a
    /// process that reused its pid); `false` when no process of the app with that pid is held.
    public func killHeld(_ appID: String, pid: Int32) -> Bool {
        guard let peer = attached[appID], peer.pid == pid else { return false }
        _ = peer.send(SIGKILL)  // ESRCH: it is gone already, as the kill wanted
        return true
    }

    /// Carries out one command; the outcome comes back through `onReport` (at once for `spawned`, `launchFailed`
    /// and `refused`; `exited` when the process ends).
    public func perform(_ command: SupervisorCommand) {
        loop.preconditionInLoop()
        switch command {
        case .spawn(let manifest): spawn(manifest)
        case .kill(let appID, let reason):
            if let app = spawned[appID] {
                app.kill(reason)
            } else if let peer = attached[appID] {
                peer.send(SIGKILL)
            } else {
                onReport(.refused(command, .notRunning))
            }
        case .freeze(let appID), .thaw(let appID):
            guard let app = spawned[appID] else {
                onReport(.refused(command, attached[appID] == nil ? .notRunning : .notSpawned))
                return
            }
            if case .freeze = command { app.freeze() } else { app.thaw() }
        }
    }

    /// Takes a round of memory samples now and reports it (`memory`, empty when nothing runs); without a sampler
    /// (no sample period) reports an empty round at once.
    public func sampleMemory() {
        guard let sampler else {
            onReport(.memory([]))
            return
        }
        samplesOwed += 1
        sampler.sampleNow()
    }

    /// Stops sampling and kills every spawned app (`shutdown`); their `exited` reports follow on the loop.
    public func close() {
        sampler?.close()
        sampler = nil
        // With a containment, one pass kills every run (in subreaper mode each run's own kill is a /proc pass).
        for app in spawned.values { app.kill(.shutdown, wholeRun: containment == nil) }
        containment?.killEverything()
        containment?.close()
        closing = true
        if spawned.isEmpty { closeReaper() }
    }

    /// After the last app's exit once closing: reaps what is left, then lets the loop end.
    private func closeReaper() {
        reaper?.reap()
        reaper?.close()
        reaper = nil
    }

    private func spawn(_ manifest: AppManifest) {
        let appID = manifest.id
        guard pid(of: appID) == nil else {
            onReport(.refused(.spawn(manifest), .alreadyRunning))
            return
        }
        do throws(LaunchFailure) {
            let logPath: String
            do {
                logPath = try logs.prepare(for: appID)
            } catch {
                throw LaunchFailure(appID: appID, cause: error)
            }
            let request = try LaunchRequest(
                manifest: manifest, socketPath: socketPath, logPath: logPath, hookAdapter: hookAdapter)
            let app = try AppProcess.launch(request, loop: loop, containment: containment) { [weak self] exit in
                self?.spawned[exit.appID] = nil
                self?.onReport(.exited(exit))
                if let self, self.closing, self.spawned.isEmpty { self.closeReaper() }
            }
            spawned[appID] = app
            onReport(.spawned(appID: appID, pid: app.pid))
        } catch {
            onReport(.launchFailed(error))
        }
    }

    private var memoryTargets: [MemoryReading.Target] {
        // A run contained in a cgroup is measured by its cgroup (every process of the run, however it left the group).
        spawned.values.sorted { $0.appID < $1.appID }.map { app in
            app.cgroupPath.map { .init(appID: app.appID, scope: .cgroup(path: $0)) }
                ?? .init(appID: app.appID, pid: app.pid, wholeGroup: true)
        }
            + attached.sorted { $0.key < $1.key }.map { .init(appID: $0.key, pid: $0.value.pid, wholeGroup: false) }
    }
}

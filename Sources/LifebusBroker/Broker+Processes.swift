import LifebusBrokerMachine
import LifebusContainment
import LifebusCore
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusSupervision

/// The broker's hands on processes: it owns the `Supervisor`, reads the manifests of `--apps DIR` at start and those
/// `install` names (the machine installs them, or refuses), and turns the supervisor's reports into machine inputs.
/// Reports are fed after the effects being performed (a report during an effect waits in `supervisorReports`), so
/// the machine sees them in order.
extension Broker {
    /// Creates the supervisor (apps' logs beside the journal) with the configured containment (its mode logged at
    /// start) and the hook adapter (`lifebus` beside `lifebusd`, else on `PATH`), and installs `--apps DIR`, whose
    /// variables are the broker's own; a bad manifest is logged naming its file and member, the others load.
    func startSupervisor() {
        let logs = AppLogFiles(folder: AppLogFiles.folder(besideJournal: configuration.journalPath
            ?? configuration.socketPath))
        let containment = configuration.containment.map(Containment.start)
        if let containment {
            logger.info("containment", metadata: [
                "lifebus.containment": "\(containment.summary)",
                "lifebus.containment.guard": "\(containment.guardPid ?? 0)",
            ])
            for warning in containment.warnings { logger.warning("containment: \(warning)") }
        }
        do {
            supervisor = try Supervisor(
                loop: loop, socketPath: configuration.socketPath, logs: logs,
                samplePeriod: configuration.memory.samplePeriod, samplesOnDemand: configuration.clock == .manual,
                containment: containment,
                hookAdapter: SiblingExecutable.find("lifebus", path: ProcessEnvironment.current["PATH"])
            ) { [unowned self] report in
                self.supervisorReports.append(report)
                if self.feedDepth == 0 { self.feedSupervisorReports() }
            }
        } catch {
            logger.error("cannot supervise apps", metadata: ["lifebus.error": "\(error)"])
            return
        }
        guard let folder = configuration.appsFolder else { return }
        do {
            let directory = try ManifestDirectory.load(folder, environment: ProcessEnvironment.current)
            for problem in directory.errors {
                logger.error("manifest refused", metadata: ["lifebus.manifest.error": "\(problem)"])
            }
            for manifest in directory.manifests {
                let path = folder.hasSuffix("/") ? folder : folder + "/"
                do throws(ManifestError) {
                    feed(.installed(.none, .success(try install(manifest, from: path))))
                } catch {
                    logger.error("manifest refused", metadata: ["lifebus.manifest.error": "\(error)"])
                }
            }
        } catch {
            logger.error("cannot read the apps folder", metadata: ["lifebus.error": "\(error)"])
        }
    }

    /// Reads and installs the manifest an `install` request named, its variables the client's; answers through the
    /// machine.
    func install(_ ticket: Ticket, _ source: ManifestSource) {
        let result: Result<InstalledApp, RPCError>
        do throws(ManifestError) {
            switch source {
            case .file(let path, let environment):
                result = .success(try install(try AppManifest.load(path, environment: environment), from: path))
            case .object(let object, let environment):
                let text = JSONValue.object(object).jsonText
                let manifest = try AppManifest.parse(
                    Array(text.utf8), file: "params.manifest", folder: "/", environment: environment)
                result = .success(try install(manifest, from: nil))
            }
        } catch {
            result = .failure(.invalidParams(field: error.member ?? "path", "is refused: \(error)"))
        }
        feed(.installed(ticket, result))
    }

    /// The machine's view of a checked manifest; one with hooks is refused when the broker has no hook adapter.
    private func install(_ manifest: AppManifest, from path: String?) throws(ManifestError) -> InstalledApp {
        if !manifest.hooks.isEmpty, supervisor?.hookAdapter == nil {
            throw ManifestError(file: path ?? "params.manifest", member: "hooks", .noHookAdapter)
        }
        var flags = AppFlags(exitsOnSuspend: manifest.exitsOnSuspend, backgroundModes: manifest.backgroundModes,
                             launchInBackground: manifest.launchInBackground)
        flags.permittedTaskIdentifiers = manifest.backgroundTaskIdentifiers
        let logPath = AppLogFiles(folder: AppLogFiles.folder(besideJournal: configuration.journalPath
            ?? configuration.socketPath)).path(for: manifest.id)
        return InstalledApp(
            id: AppID(manifest.id), flags: flags, executable: manifest.executable, arguments: manifest.arguments,
            environment: manifest.environment, workingDirectory: manifest.workingDirectory,
            memoryLimit: manifest.memoryLimit, logPath: logPath, manifestPath: path, hooks: manifest.hooks)
    }

    /// Feeds the reports that came while effects were performed, in order.
    func feedSupervisorReports() {
        while !supervisorReports.isEmpty {
            let report = supervisorReports.removeFirst()
            switch report {
            case .spawned(let app, let pid):
                feed(.processSpawned(AppID(app), pid: pid))
            case .launchFailed(let failure):
                feed(.launchFailed(AppID(failure.appID), path: failure.path, errno: failure.code,
                                   detail: failure.description))
            case .exited(let exit):
                let status: ExitStatus = switch exit.termination {
                case .exited(let code): .exited(code)
                case .signalled(let signal): .signaled(signal)
                }
                feed(.processExited(AppID(exit.appID), pid: exit.pid, status, killedFor: exit.killReason))
            case .memory(let samples):
                feed(.memorySampled(memoryRound(samples)))
            case .refused(let command, let refusal):
                logger.notice("process command refused", metadata: [
                    "lifebus.command": "\(command)", "lifebus.refusal": "\(refusal.rawValue)"])
                if case .spawn(let manifest) = command {
                    feed(.spawnRefused(AppID(manifest.id), because: "\(refusal)"))
                }
            }
        }
    }
}

import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The controller methods on installed apps: `install` (the driver reads and checks the manifest, then reports
/// `installed`), `uninstall` and `apps`; and the rule that an installed app's manifest flags win over its `hello`.
extension BrokerMachine {
    mutating func handleAppsRequest(
        _ method: String, _ params: JSONValue, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        switch method {
        case LifebusMethod.install:
            guard processes.installed.count < ProcessBook.maxInstalled else {
                throw .limitExceeded("installedApps", maximum: ProcessBook.maxInstalled, "too many apps installed")
            }
            let environment = try Self.installEnvironment(params["environment"])
            switch (params["path"], params["manifest"]) {
            case (.string(let path)?, nil):
                effects.append(.install(ticket, .file(path, environment: environment)))
            case (nil, .object(let object)?):
                effects.append(.install(ticket, .object(object, environment: environment)))
            default:
                throw .invalidParams("give either \"path\" (a manifest file) or \"manifest\" (a manifest object)")
            }
        case LifebusMethod.uninstall:
            guard let id = params["id"]?.stringValue else {
                throw .invalidParams(field: "id", "must be the installed app's id")
            }
            guard processes.uninstall(AppID(id)) else {
                throw RPCError(.appNotFound, "no app \(id) is installed")
            }
            effects.append(.reply(ticket, .success(EmptyResult.json)))
        default:
            let apps = processes.installed.keys.sorted().map(appLine)
            let pressure = processes.pressure.map { JSONValue.string($0.rawValue) } ?? .null
            effects.append(.reply(ticket, .success(["apps": .array(apps), "pressure": pressure])))
        }
    }

    /// The most variables an `install` may carry.
    static let maxInstallVariables = 256

    /// The `environment` of `install` params: variable names to string values (no NUL), at most
    /// `maxInstallVariables`; absent is none.
    static func installEnvironment(_ value: JSONValue?) throws(RPCError) -> [String: String] {
        guard let value else { return [:] }
        guard let object = value.objectValue else {
            throw .invalidParams(field: "environment", "must be an object of variable names to strings")
        }
        guard object.count <= maxInstallVariables else {
            throw .limitExceeded("environment", maximum: maxInstallVariables, "too many variables")
        }
        var environment: [String: String] = [:]
        for (name, text) in object {
            guard ManifestVariables.isName(name), let text = text.stringValue, !text.utf8.contains(0) else {
                throw .invalidParams(field: "environment", "\"\(name)\" must be a variable name "
                    + "([A-Za-z_][A-Za-z0-9_]*) with a string value without NUL")
            }
            environment[name] = text
        }
        return environment
    }

    /// The driver read the manifest an `install` named (or one of `--apps DIR`). An id installed already is refused:
    /// the one install rule (the supervisor keeps no table).
    mutating func installed(
        _ ticket: Ticket, _ result: Result<InstalledApp, RPCError>, into effects: inout [BrokerEffect]
    ) {
        var result = result
        if case .success(let app) = result, processes.installed[app.id] != nil {
            result = .failure(Self.installedAlready(app.id))
        }
        if case .success(let app) = result {
            processes.installed[app.id] = app
            logger.info("app installed",
                        metadata: ["lifebus.app.id": "\(app.id)", "lifebus.app.path": "\(app.executable)"])
        }
        effects.append(.reply(ticket, result.map { appLine($0.id) }))
    }

    /// The refusal of an `install` whose id is installed already.
    static func installedAlready(_ app: AppID) -> RPCError {
        .invalidParams(field: "id", "\(app) is installed already: uninstall it first")
    }

    /// The flags the core gets for a connecting app: its manifest's when it is installed (the difference logged),
    /// but for the scene flags (`scenes`, `multipleScenes`, `implements`), which a manifest does not have: the
    /// hello's, as a scene app's Info.plist scene manifest is its own; and the permitted task identifiers when the
    /// manifest lists none.
    func installedFlags(of app: AppID, saidInHello flags: AppFlags) -> AppFlags {
        guard var manifest = processes.installed[app]?.flags else { return flags }
        manifest.adoptsScenes = flags.adoptsScenes
        manifest.supportsMultipleScenes = flags.supportsMultipleScenes
        manifest.implementedCallbacks = flags.implementedCallbacks
        if manifest.permittedTaskIdentifiers.isEmpty {
            manifest.permittedTaskIdentifiers = flags.permittedTaskIdentifiers
        }
        if manifest != flags {
            logger.notice("the manifest's flags win over the app's hello", metadata: [
                "lifebus.app.id": "\(app)", "lifebus.flags.manifest": "\(manifest.json.jsonText)",
                "lifebus.flags.hello": "\(flags.json.jsonText)",
            ])
        }
        return manifest
    }

    private func appLine(_ app: AppID) -> JSONValue {
        guard let installed = processes.installed[app] else { return .null }
        let spawned = processes.spawnedPid(of: app)
        return installed.json(state: device.state(of: app), pid: spawned ?? livePid(of: app), spawned: spawned != nil,
                              residentBytes: processes.resident[app], frozen: processes.isFrozen(app))
    }
}

import Glibc
import LifebusContainment
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

extension AppManifest {
    /// Reads and checks the manifest file at `path`: a regular file (not a link, a FIFO, a device, a folder) of at
    /// most `maxFileBytes`, that no other user could have changed (`TrustedPath`). Its `${VAR}`s take their values
    /// from `environment` (the installing client's, or the broker's for `--apps DIR`).
    public static func load(_ path: String, environment: [String: String]) throws(ManifestError) -> AppManifest {
        let bytes: [UInt8]
        do {
            bytes = try SystemFiles.read(path, limit: maxFileBytes, followingLinks: false)
        } catch {
            throw ManifestError(file: path, .unreadable(error))
        }
        if let reason = TrustedPath.problem(path) {
            throw ManifestError(file: path, .untrusted(path: path, reason: reason))
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return try parse(bytes, file: path, folder: folder.isEmpty ? "/" : folder, environment: environment)
    }

    /// Parses and checks a manifest's text; `${VAR}`s in `executable`, `arguments`, `environment` values,
    /// `workingDirectory` and `hooks` take their values from `environment`; relative paths with a slash are taken
    /// from `folder`, an executable without one is looked up on `environment["PATH"]`. `file` names it in errors.
    /// Refuses unknown members, missing or mistyped ones, a NUL in a string, a bad id or size, a variable that cannot
    /// be expanded, a hook of no known callback or with no command, and an executable that is not there, not
    /// executable, or that another user could change (`TrustedPath`).
    public static func parse(
        _ bytes: [UInt8], file: String, folder: String, environment: [String: String]
    ) throws(ManifestError) -> AppManifest {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            let (line, column) = error.position(in: bytes)
            throw ManifestError(file: file, .notJSON(error, line: line, column: column))
        }
        guard let object = value.objectValue else { throw ManifestError(file: file, .notAnObject) }
        if let unknown = object.keys.first(where: { !members.contains($0) }) {
            throw ManifestError(file: file, member: unknown, .unknownMember)
        }
        let reader = ManifestReader(object: object, file: file, variables: environment)
        let id = try reader.string("id")
        guard isValidID(id) else { throw reader.error("id", .badID(id)) }
        let program = try reader.expanded("executable", try reader.string("executable"))
        // Empty as written, or as a variable left it (`$(command -v X)` of a program not installed).
        guard !program.isEmpty else {
            throw reader.error("executable", .wrongType(expected: "a program's path or name, not empty"))
        }
        var manifest = AppManifest(
            id: id, executable: try executablePath(program, in: folder, reader: reader),
            arguments: try reader.strings("arguments").map { text throws(ManifestError) in
                try reader.expanded("arguments", text)
            },
            environment: try reader.environment("environment"),
            workingDirectory: try reader.optionalString("workingDirectory").map { text throws(ManifestError) in
                absolute(try reader.expanded("workingDirectory", text), in: folder)
            },
            exitsOnSuspend: try reader.bool("exitsOnSuspend"), backgroundModes: try reader.strings("backgroundModes"),
            launchInBackground: try reader.bool("launchInBackground"),
            backgroundTaskIdentifiers: try reader.strings("backgroundTaskIdentifiers"),
            hooks: try reader.hooks("hooks"))
        let identifiers = manifest.backgroundTaskIdentifiers
        if let bad = identifiers.first(where: { !RegisterBackgroundTaskParams.isValidIdentifier($0) }) {
            throw reader.error("backgroundTaskIdentifiers", .badTaskIdentifier(bad))
        }
        if let text = try reader.optionalString("memoryLimit") {
            guard let bytes = ByteSize.parse(text), bytes > 0 else { throw reader.error("memoryLimit", .badSize(text)) }
            manifest.memoryLimit = bytes
        }
        if let problem = SystemFiles.executableProblem(manifest.executable) {
            throw reader.error("executable", .unusablePath(problem))
        }
        if let reason = TrustedPath.problem(manifest.executable) {
            throw reader.error("executable", .untrusted(path: manifest.executable, reason: reason))
        }
        if let directory = manifest.workingDirectory, !SystemFiles.isFolder(directory) {
            throw reader.error("workingDirectory", .unusablePath(SystemError("chdir", path: directory, code: ENOTDIR)))
        }
        return manifest
    }

    /// The program's absolute path: as written when absolute, from `folder` when it has a slash, else the first
    /// executable of that name in an absolute folder of the variables' `PATH`.
    private static func executablePath(
        _ program: String, in folder: String, reader: ManifestReader
    ) throws(ManifestError) -> String {
        guard !program.contains("/") else { return absolute(program, in: folder) }
        guard let path = reader.variables["PATH"] else { throw reader.error("executable", .notOnPath(program, nil)) }
        let candidates = path.split(separator: ":").filter { $0.hasPrefix("/") }.map { folder in
            String(folder) + "/" + program
        }
        guard let found = candidates.first(where: { candidate in access(candidate, X_OK) == 0 }) else {
            throw reader.error("executable", .notOnPath(program, path))
        }
        return found
    }

    private static func absolute(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") ? path : folder == "/" ? "/" + path : folder + "/" + path
    }
}

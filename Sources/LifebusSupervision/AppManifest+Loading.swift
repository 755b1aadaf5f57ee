import Glibc
import LifebusContainment
import LifebusJSON

extension AppManifest {
    /// Reads and checks the manifest file at `path`: a regular file (not a link, a FIFO, a device, a folder) of at
    /// most `maxFileBytes`, that no other user could have changed (`TrustedPath`).
    public static func load(_ path: String) throws(ManifestError) -> AppManifest {
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
        return try parse(bytes, file: path, folder: folder.isEmpty ? "/" : folder)
    }

    /// Parses and checks a manifest's text; relative paths in it are taken from `folder`. `file` names it in
    /// errors. Refuses unknown members, missing or mistyped ones, a NUL in a string, a bad id or size, and an
    /// executable that is not there, not executable, or that another user could change (`TrustedPath`).
    public static func parse(_ bytes: [UInt8], file: String, folder: String) throws(ManifestError) -> AppManifest {
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
        let reader = ManifestReader(object: object, file: file)
        let id = try reader.string("id")
        guard isValidID(id) else { throw reader.error("id", .badID(id)) }
        var manifest = AppManifest(
            id: id, executable: absolute(try reader.string("executable"), in: folder),
            arguments: try reader.strings("arguments"), environment: try reader.environment("environment"),
            workingDirectory: try reader.optionalString("workingDirectory").map { absolute($0, in: folder) },
            exitsOnSuspend: try reader.bool("exitsOnSuspend"), backgroundModes: try reader.strings("backgroundModes"),
            launchInBackground: try reader.bool("launchInBackground"))
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

    private static func absolute(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") ? path : folder == "/" ? "/" + path : folder + "/" + path
    }
}

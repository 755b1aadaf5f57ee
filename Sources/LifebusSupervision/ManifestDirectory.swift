import Glibc
public import LifebusContainment

/// Every manifest of one folder: what `lifebusd --apps DIR` installs at start.
///
/// A plain value. Loading checks the folder as sshd's `StrictModes` would (`TrustedPath`), then reads each `*.json`
/// file of the folder (hidden files skipped) in name order; a bad manifest is refused with its error and the others
/// still load. A second manifest with an id already installed is refused, naming the file that installed it first.
/// At most `maxManifests` files are read; the rest are refused as errors too.
public struct ManifestDirectory: Sendable, Equatable {
    public let path: String
    /// The manifests installed, in file-name order.
    public let manifests: [AppManifest]
    /// The manifests refused.
    public let errors: [ManifestError]

    /// The most manifests one folder installs.
    public static let maxManifests = 256

    /// Loads the folder, the manifests' `${VAR}`s taken from `environment` (the broker's own); throws only when the
    /// folder itself cannot be listed, or another user could change it (`TrustedPath`: then nothing in it is read).
    public static func load(_ path: String, environment: [String: String]) throws(SystemError) -> ManifestDirectory {
        if let reason = TrustedPath.problem(path) {
            throw SystemError(refusing: path, "\(reason) (another user could change what runs)", function: "opendir")
        }
        let names = try SystemFiles.names(in: path).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        var manifests: [AppManifest] = []
        var errors: [ManifestError] = []
        var firstFile: [String: String] = [:]
        for (index, name) in names.enumerated() {
            let file = path.hasSuffix("/") ? path + name : path + "/" + name
            guard index < maxManifests else {
                errors.append(ManifestError(file: file, .unreadable(SystemError("read", path: file, code: EMFILE))))
                continue
            }
            do throws(ManifestError) {
                let manifest = try AppManifest.load(file, environment: environment)
                if let first = firstFile[manifest.id] {
                    throw ManifestError(file: file, member: "id", .duplicateID(manifest.id, firstIn: first))
                }
                firstFile[manifest.id] = file
                manifests.append(manifest)
            } catch {
                errors.append(error)
            }
        }
        return ManifestDirectory(path: path, manifests: manifests, errors: errors)
    }

    /// The manifest installing `id`, if any.
    public func manifest(for id: String) -> AppManifest? {
        manifests.first { $0.id == id }
    }
}

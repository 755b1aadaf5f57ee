/// A path written relative to a folder, as a reproducer names its manifests (relative to the reproducer file, so the
/// two move together and `lifebus run` finds them from any working directory). Stateless and pure: both paths are
/// absolute and already resolved (no `.`, `..` or symbolic link), which the caller ensures.
public enum RelativePath {
    /// `path` relative to `folder`: `manifests/a.json`, `../apps/a.json`, or `a.json` in the folder itself.
    public static func of(_ path: String, from folder: String) -> String {
        let target = path.split(separator: "/")
        let base = folder.split(separator: "/")
        let shared = zip(target, base).prefix { $0 == $1 }.count
        let up = Array(repeating: "..", count: base.count - shared)
        return (up + target.dropFirst(shared).map(String.init)).joined(separator: "/")
    }
}

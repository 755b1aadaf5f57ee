import Glibc

/// Finding a companion program the way every Lifebus command does: beside the running executable first (an
/// installed or built set of binaries stays together), else the first executable of that name on a `PATH`. Stateless.
public enum SiblingExecutable {
    /// The path of `name` beside `/proc/self/exe`, else in the first folder of `path` (a `PATH` value) that has it
    /// executable; `nil` when none does.
    public static func find(_ name: String, path: String?) -> String? {
        var candidates: [String] = []
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let own = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = own.lastIndex(of: "/") { candidates.append(own[..<slash] + "/" + name) }
        }
        for folder in (path ?? "").split(separator: ":") where !folder.isEmpty {
            candidates.append("\(folder)/\(name)")
        }
        return candidates.first { access($0, X_OK) == 0 }
    }
}

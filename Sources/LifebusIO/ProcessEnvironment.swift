import Glibc

/// The process's environment variables, read from `environ` without Foundation.
public enum ProcessEnvironment {
    /// A snapshot of the environment as a dictionary.
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return result
    }

    /// The named variables that are set, read with `getenv` (cheaper than `current` for a few: the rest of the
    /// environment is neither copied nor hashed).
    public static func values(of names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}

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
}

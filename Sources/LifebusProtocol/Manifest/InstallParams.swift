public import LifebusJSON

/// The params of an `install` a client sends for a manifest file (`Protocol/README.md` §16.1, §16.5): its absolute
/// path and, under `environment`, the client's values of the variables the manifest names (`ManifestVariables.names`),
/// plus `PATH` when its `executable` has no slash (the broker looks it up there). Never the client's whole
/// environment: a variable the manifest does not name is not sent, nor one the client has not set.
///
/// Stateless and pure: the caller reads the file and gives its environment.
public enum InstallParams {
    /// The params for the manifest at `path` (absolute) whose text is `text`; `nil` text (the client cannot read it)
    /// sends the path alone, and the broker says why it cannot read it either.
    public static func file(_ path: String, text: [UInt8]?, environment: [String: String]) -> JSONObject {
        var params: JSONObject = ["path": .string(path)]
        guard let text else { return params }
        let sent = variables(named: String(decoding: text, as: UTF8.self), executable: executable(in: text),
                             environment: environment)
        if !sent.isEmpty {
            let variables = sent.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
            params["environment"] = .object(JSONObject(variables))
        }
        return params
    }

    /// The variables of `environment` that `manifestText` names, and `PATH` when `executable` (expanded with the
    /// same environment) has no slash.
    private static func variables(
        named manifestText: String, executable: String?, environment: [String: String]
    ) -> [String: String] {
        var sent: [String: String] = [:]
        for name in ManifestVariables.names(in: manifestText) {
            if let value = environment[name] { sent[name] = value }
        }
        if let executable, let expanded = try? ManifestVariables.expand(executable, { environment[$0] }),
           !expanded.contains("/") {
            sent["PATH"] = environment["PATH"]
        }
        return sent
    }

    private static func executable(in text: [UInt8]) -> String? {
        (try? JSONParser.parse(text))?["executable"]?.stringValue
    }
}

public import LifebusJSON
import LifebusContainment

/// Reading a report `lifebus run --report`/`--json` or `lifebus merge --json` wrote (for `--timings` and for
/// `lifebus merge`): at most `maxBytes`, UTF-8 JSON. Stateless.
public enum RunReportFile {
    /// The largest report read (each run's journal is in it; a thousand runs of a hundred entries are ~30 MiB).
    public static let maxBytes = 256 * 1024 * 1024

    /// Why a report could not be read: `PATH: why`.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func read(_ path: String) throws(Failure) -> JSONValue {
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try SystemFiles.read(path, limit: maxBytes)
        } catch {
            throw Failure(description: "\(path): cannot read: \(error)")
        }
        do throws(JSONParseError) {
            return try JSONParser.parse(bytes, maxDepth: 64)
        } catch {
            throw Failure(description: "\(path): not JSON: \(error)")
        }
    }
}

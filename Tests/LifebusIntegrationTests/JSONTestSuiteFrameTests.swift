import Glibc
import LifebusIO
import LifebusProtocol
import Testing

/// The JSONTestSuite corpus sent as frames to the running broker: every `n_` text is a parse error (-32700),
/// every `y_` text parses (so whatever the broker says, it is not -32700), and the broker serves on after each.
@Suite struct JSONTestSuiteFrameTests {
    static let folder = "\(TranscriptReplayTests.repositoryRoot)/Tests/Fixtures/json-test-suite/test_parsing"

    /// Files whose bytes hold no newline: a frame is one line, so those are the texts a frame can carry.
    static func cases(prefix: String) -> [String] {
        let names = (FolderEntries.names(in: folder) ?? []).filter { name in
            guard name.hasPrefix(prefix), let bytes = try? readBytes("\(folder)/\(name)") else { return false }
            return !bytes.contains(0x0A)
        }
        return names.sorted()
    }

    @Test func everyRejectedTextIsAParseErrorAndEveryAcceptedTextIsNot() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.hello()
        let rejected = Self.cases(prefix: "n_")
        let accepted = Self.cases(prefix: "y_")
        #expect(rejected.count > 150 && accepted.count > 80)
        for name in rejected {
            client.send(try readBytes("\(Self.folder)/\(name)") + [0x0A])
            #expect(errorCode(client.readLine()) == -32700, "\(name) must be rejected as JSON")
        }
        for name in accepted {
            client.send(try readBytes("\(Self.folder)/\(name)") + [0x0A])
            let answer = client.readLine()
            #expect(answer != nil && errorCode(answer) != -32700, "\(name) is valid JSON")
        }
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        #expect(parsed(client.readLine())?["result"] != nil)
    }
}

/// The bytes of a file.
func readBytes(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "r") else { throw SpawnError(errno: errno) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}

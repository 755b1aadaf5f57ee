import Glibc
import LifebusJSON
import Testing

/// Replays every transcript in `Protocol/examples/` against a real broker, so the spec's examples cannot rot.
///
/// Each line of a transcript is an object with one verb: `send` (a JSON value, sent as one line), `sendRaw` (text
/// sent as is), `expect` (the broker's next line, compared as JSON, where the string `"$any"` matches any value),
/// `expectClose`, or `comment`. An optional `"as": NAME` picks the connection (default `main`, opened on first use).
@Suite struct TranscriptReplayTests {
    static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    static var transcripts: [String] {
        fileNames(in: "\(repositoryRoot)/Protocol/examples", endingWith: ".jsonl")
    }

    @Test(arguments: transcripts)
    func transcriptReplaysAgainstTheBroker(name: String) throws {
        let lines = try readLines("\(Self.repositoryRoot)/Protocol/examples/\(name)")
        #expect(!lines.isEmpty)
        // A transcript's first line may name the broker's arguments (`"brokerArguments": ["--clock", "manual"]`).
        let arguments = (try? JSONParser.parse(lines.first ?? ""))?["brokerArguments"]?.arrayValue ?? []
        let broker = try BrokerFixture(arguments: arguments.compactMap(\.stringValue))
        var connections: [String: RawClient] = [:]
        for (number, line) in lines.enumerated() {
            let step = try JSONParser.parse(line)
            let who = step["as"]?.stringValue ?? "main"
            let connection = try connections[who] ?? broker.connect()
            connections[who] = connection
            if let message = step["send"] {
                connection.sendLine(message.jsonText)
            } else if let raw = step["sendRaw"]?.stringValue {
                connection.sendLine(raw)
            } else if let pattern = step["expect"] {
                let answer = connection.readLine()
                let actual = parsed(answer)
                #expect(actual.map { matches($0, pattern) } == true,
                        "\(name):\(number + 1): expected \(pattern.jsonText), got \(answer ?? "nothing")")
            } else if step["expectClose"] != nil {
                #expect(connection.waitForClose(), "\(name):\(number + 1): expected the broker to close")
            }
        }
    }
}

/// Whether `actual` matches `pattern`, where the string "$any" in the pattern matches anything.
func matches(_ actual: JSONValue, _ pattern: JSONValue) -> Bool {
    if pattern == .string("$any") { return true }
    switch (actual, pattern) {
    case (.object(let a), .object(let p)):
        let actualKeys = Set(a.map(\.0))
        let patternKeys = Set(p.map(\.0))
        guard actualKeys == patternKeys else { return false }
        return p.allSatisfy { key, value in a[key].map { matches($0, value) } ?? false }
    case (.array(let a), .array(let p)):
        return a.count == p.count && zip(a, p).allSatisfy { matches($0, $1) }
    default:
        return actual == pattern
    }
}

/// The non-empty lines of a text file.
func readLines(_ path: String) throws -> [String] {
    try readBytes(path).split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
}

import Glibc
import LifebusJSON
import LifebusProtocol
import LifebusTimeline

/// The committed journal `Tests/Fixtures/timeline/journal.jsonl`: two apps launched, a call answered while
/// ReturnMeTo is in front (its didEnterBackground never answers: watchdog), DeepThoughts suspended and then jetsammed
/// by a critical memory warning, two marks, and one `run` record of a kind the timeline does not draw. And
/// `scenes.jsonl` (ios17, time scale 0.01): an app-delegate app Legacy and a scene app Notes whose scene 1 is joined
/// by scene 2 (`scene open`), focus, home, scene 2 reclaimed and its session reconnected as scene 3, scene 1 closed;
/// Notes answers `sceneDidEnterBackground` after 40 ms; both end when their `subscribe` is killed (crashed).
enum TimelineFixture {
    static let deepThoughts = "com.example.DeepThoughts"
    static let returnMeTo = "com.example.ReturnMeTo"

    static let notes = "com.example.Notes"
    static let legacy = "com.example.Legacy"

    static func path(_ name: String = "journal.jsonl") -> String {
        let file = "\(#filePath)"
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        let testsFolder = parts.dropLast(2).joined(separator: "/")
        return "\(testsFolder)/Fixtures/timeline/\(name)"
    }

    /// The fixture's lines as JSON values, unknown kinds included.
    static func lines(_ name: String = "journal.jsonl") throws -> [JSONValue] {
        let path = path(name)
        guard let file = fopen(path, "r") else { throw FixtureMissing(path: path) }
        defer { fclose(file) }
        var values: [JSONValue] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, file) > 0 {
            let text = String(cString: line!).trimmingNewline
            if !text.isEmpty { values.append(try JSONParser.parse(text)) }
        }
        free(line)
        return values
    }

    /// The fixture's transitions and marks.
    static func entries(_ name: String = "journal.jsonl") throws -> [JournalEntry] {
        try lines(name).compactMap { value throws in try JournalEntries.decode(value) }
    }

    /// The fixture file could not be opened.
    struct FixtureMissing: Error {
        let path: String
    }
}

extension String {
    fileprivate var trimmingNewline: String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}

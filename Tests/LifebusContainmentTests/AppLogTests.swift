import Glibc
import LifebusContainment
import LifebusTestFiles
import Testing

/// Per-app logs: where they live, their bound, and reading them as `logs --follow` will.
@Suite struct AppLogTests {
    @Test func logsLiveBesideTheJournal() {
        #expect(AppLogFiles.folder(besideJournal: "/var/state/lifebus/journal.jsonl") == "/var/state/lifebus/logs")
        let files = AppLogFiles(folder: "/s/logs")
        #expect(files.path(for: "com.example.A") == "/s/logs/com.example.A.log")
        #expect(files.previousPath(for: "com.example.A") == "/s/logs/com.example.A.log.1")
    }

    @Test func anOverBoundLogIsRotatedAndTheReaderStartsAgain() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let files = AppLogFiles(folder: folder.file("logs"), maxBytes: 10)
        let path = try files.prepare(for: "a")
        var info = stat()
        #expect(stat(files.folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o777 == 0o700)
        var reader = AppLogReader(path: path)
        #expect(try reader.readNew().isEmpty)  // no log yet
        folder.write("logs/a.log", "0123456789")
        #expect(String(decoding: try reader.readNew(), as: UTF8.self) == "0123456789")
        #expect(try files.rotateIfOver(for: "a") == false)  // at the bound, not over it
        appendText(path, "ab\n")
        #expect(String(decoding: try reader.readNew(), as: UTF8.self) == "ab\n")
        #expect(try files.rotateIfOver(for: "a"))
        #expect(folder.read("logs/a.log.1") == "0123456789ab\n")
        #expect(folder.read("logs/a.log") == "")
        appendText(path, "new\n")
        #expect(String(decoding: try reader.readNew(), as: UTF8.self) == "new\n")  // the file shrank: from 0
        var tail = AppLogReader(path: path, fromEnd: true)
        #expect(try tail.readNew().isEmpty)
    }

    private func appendText(_ path: String, _ text: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND)
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    }
}

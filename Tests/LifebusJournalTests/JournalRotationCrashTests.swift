import Glibc
import LifebusProtocol
import Logging
import Testing

@testable import LifebusJournal

/// A broker killed at each step of a rotation (`JournalFile.rotate`: `.2`→`.3`, `.1`→`.2`, the file→`.1`, the new
/// file opened, its first line written): the next broker goes on from the newest whole line of the file and its
/// rotated files, so no `seq` is used twice across them.
@Suite struct JournalRotationCrashTests {
    typealias Folder = JournalTests.Folder

    /// The files on disk when the broker was killed, lines 1…40 written ten to a file before the rotation began.
    enum CrashPoint: String, CaseIterable, CustomStringConvertible {
        case beforeRotating, afterRenamingTheSecond, afterRenamingTheFirst, afterRenamingTheFile, afterOpeningTheNew,
             midFirstWrite
        var description: String { rawValue }
    }

    private static func lines(_ seqs: ClosedRange<Int64>) -> String {
        seqs.map {
            MarkRecord(seq: $0, app: "com.x", pid: nil, name: "m", data: nil, atMs: 0, wallMs: 0).json.jsonText + "\n"
        }.joined()
    }

    private static func lay(_ point: CrashPoint, in folder: Folder) {
        let (newest, first, second, third) = (lines(31...40), lines(21...30), lines(11...20), lines(1...10))
        let files: [String: String] = switch point {
        case .beforeRotating: ["j": newest, "j.1": first, "j.2": second, "j.3": third]
        case .afterRenamingTheSecond: ["j": newest, "j.1": first, "j.3": second]
        case .afterRenamingTheFirst: ["j": newest, "j.2": first, "j.3": second]
        case .afterRenamingTheFile: ["j.1": newest, "j.2": first, "j.3": second]
        case .afterOpeningTheNew: ["j": "", "j.1": newest, "j.2": first, "j.3": second]
        case .midFirstWrite: ["j": "{\"type\":\"run\",\"seq\":41,\"rea", "j.1": newest, "j.2": first, "j.3": second]
        }
        for (name, text) in files { folder.write(name, text) }
    }

    @Test(arguments: CrashPoint.allCases)
    func theNextBrokerGoesOnFromTheNewestWholeLineOfTheFileOrItsRotatedOnes(_ point: CrashPoint) throws {
        let folder = Folder()
        Self.lay(point, in: folder)
        let journal = try Journal(settings: JournalSettings(path: "\(folder.path)/j"), logger: Logger(label: "test"))
        #expect(journal.nextSequence() == 41)
        journal.beginRun(JournalTests.run)
        journal.flush()
        #expect(JournalTests.entries(folder.read("j")).map(\.seq).last == 41, "the run record goes on from 40")
    }

    @Test func aRotatedFileBehindASymbolicLinkIsNotRead() throws {
        let folder = Folder()
        folder.write("elsewhere", Self.lines(1...99))
        symlink("\(folder.path)/elsewhere", "\(folder.path)/j.1")
        let journal = try Journal(settings: JournalSettings(path: "\(folder.path)/j"), logger: Logger(label: "test"))
        #expect(journal.nextSequence() == 1)
    }
}

import Glibc
import Testing

@testable import LifebusIO

/// `FolderEntries` lists every name a folder can hold, and reads a name no further than its NUL: the last record of
/// `readdir`'s buffer can end just before unmapped memory.
@Suite struct FolderEntriesTests {
    @Test func namesOfEveryLengthFromOneTo255AreListedWithTheirInodes() throws {
        var template = Array("/tmp/lifebus-folder-entries.XXXXXX".utf8CString)
        let folder = String(cString: try #require(mkdtemp(&template)))
        let written = (1...255).map { length in String(repeating: "x", count: length) }
        var inodes: [String: UInt64] = [:]
        defer {
            for name in written { unlink("\(folder)/\(name)") }
            rmdir(folder)
        }
        for name in written {
            let descriptor = open("\(folder)/\(name)", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            try #require(descriptor >= 0, "created a file named with \(name.count) letters")
            var status = stat()
            fstat(descriptor, &status)
            inodes[name] = UInt64(status.st_ino)
            close(descriptor)
        }

        #expect(FolderEntries.names(in: folder)?.sorted() == written.sorted())
        var listed: [String: UInt64] = [:]
        #expect(FolderEntries.forEach(in: folder) { name, inode in
            listed[String(decoding: name, as: UTF8.self)] = inode
        })
        #expect(listed.filter { $0.key != "." && $0.key != ".." } == inodes)
        #expect(listed.keys.contains(".") && listed.keys.contains(".."))
    }

    @Test func aFolderThatCannotBeOpenedHasNoNames() {
        let names = FolderEntries.names(in: "/nonexistent-lifebus-folder")
        let code = errno
        #expect(names == nil)
        #expect(code == ENOENT)
        #expect(!FolderEntries.forEach(in: "/nonexistent-lifebus-folder") { _, _ in Issue.record("no entry") })
    }

    /// A record laid out as `getdents` does (8-byte aligned, as long as its name) at the very end of a page whose
    /// next page cannot be read: copying `d_name`'s 256-byte array would fault there; the name is read in place.
    @Test func aNameEndingAtTheLastByteBeforeUnmappedMemoryIsRead() throws {
        let page = Int(getpagesize())
        let memory = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(memory != MAP_FAILED)
        defer { munmap(memory, 2 * page) }
        try #require(mprotect(memory + page, page, PROT_NONE) == 0)
        let nameOffset = try #require(MemoryLayout<dirent>.offset(of: \dirent.d_name))
        let name = Array("abcd".utf8) + [0]  // with the 19 bytes before d_name, 24: no padding after the NUL
        let recordLength = (nameOffset + name.count + 7) / 8 * 8
        let record = memory + page - recordLength
        record.storeBytes(of: UInt16(recordLength), toByteOffset: MemoryLayout<dirent>.offset(of: \.d_reclen)!,
            as: UInt16.self)
        for (index, byte) in name.enumerated() {
            record.storeBytes(of: byte, toByteOffset: nameOffset + index, as: UInt8.self)
        }

        let read = FolderEntries.name(of: UnsafeRawPointer(record).assumingMemoryBound(to: dirent.self))
        #expect(Array(read) == Array("abcd".utf8))
    }
}

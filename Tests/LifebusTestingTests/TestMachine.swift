import Glibc
import LifebusIO

/// What the kit's tests need of the machine: the running test bundle, the build folder it runs from, and temporary
/// folders. Stateless.
enum TestMachine {
    /// The path of the running test bundle (SwiftPM's XCTest and Swift Testing runner).
    static var testBundle: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(length > 0, "cannot read /proc/self/exe")
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The folder of the test bundle, where SwiftPM also puts the package's executables (`ReturnMeTo`).
    static var productsFolder: String {
        let bundle = testBundle
        return String(bundle[..<bundle.lastIndex(of: "/")!])
    }

    /// A new empty folder under /tmp; the test removes it when it ends (`defer { TestMachine.remove(folder) }`).
    static func temporaryFolder() -> String {
        var template = Array("/tmp/lifebus-kit-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) {
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
    }

    /// Removes `folder` with all it holds, never following a link.
    static func remove(_ folder: String) {
        FolderEntries.removeTree(folder)
    }
}

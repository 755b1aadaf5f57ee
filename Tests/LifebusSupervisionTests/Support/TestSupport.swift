import Glibc
import LifebusIO
import Testing

/// The awaited condition did not hold before the deadline.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

extension EventLoop {
    /// Runs the loop until `condition` holds, checking it after every loop event and every `poll` (conditions on
    /// other processes, such as `/proc` states and files, raise no loop event); fails after `timeout`.
    func run(
        until what: String, timeout: Duration = .seconds(20), poll: Duration = .milliseconds(5),
        _ condition: () -> Bool
    ) throws {
        let ticker = try LoopTimer(loop: self)
        ticker.start(after: poll, repeating: poll) {}
        let deadline = EventLoop.monotonicNanoseconds() + UInt64(timeout.components.seconds) * 1_000_000_000
        while !condition(), EventLoop.monotonicNanoseconds() < deadline {
            runOnce(wait: true)
        }
        ticker.close()
        runOnce(wait: false)  // runs the ticker's close callback
        if !condition() { throw TimedOut(what: what) }
    }
}

/// The repository's root folder (this file is `Tests/LifebusSupervisionTests/Support/TestSupport.swift`).
let repositoryRoot: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)
    return parts.joined(separator: "/")
}()

/// The folder holding the package's executables (beside the test bundle; `/proc/self/exe` resolved).
let productsFolder: String = {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    precondition(length > 0, "cannot read /proc/self/exe")
    var path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while let slash = path.lastIndex(of: "/") {
        path = String(path[..<slash])
        if !path.contains(".xctest") { break }
    }
    return path
}()

/// Starts a process that connects to the Unix socket at `path` and waits for a byte that never comes: an app
/// started by hand, as the supervisor sees one.
func startConnectingClient(
    _ path: String, loop: EventLoop, onExit: @escaping (SpawnedProcess.Termination) -> Void
) throws -> SpawnedProcess {
    let client = "import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.recv(1)"
    return try SpawnedProcess.spawn(
        SpawnedProcess.Options(program: "python3", arguments: ["-c", client, path]), loop: loop, onExit: onExit)
}

extension EventLoop {
    /// Writes a line into the FIFO at `path` once a reader has opened it (until then opening it for writing fails
    /// with `ENXIO`), so the test never blocks on a reader that is not there.
    func release(fifo path: String) throws {
        var descriptor: Int32 = -1
        try run(until: "a reader of \(path)") {
            descriptor = open(path, O_WRONLY | O_NONBLOCK)
            return descriptor >= 0
        }
        _ = Glibc.write(descriptor, "\n", 1)
        Glibc.close(descriptor)
    }
}

/// Whether this test process runs under AddressSanitizer (`./scripts/test --asan`), whose quarantine keeps freed
/// memory resident for a while.
let runsUnderAddressSanitizer: Bool = {
    guard let program = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(program) }
    return dlsym(program, "__asan_init") != nil
}()

/// The children of this test process still unreaped (zombies included), from `/proc/self/task/*/children`.
func unreapedChildren() -> Set<Int32> {
    var result: Set<Int32> = []
    for name in FolderEntries.names(in: "/proc/self/task") ?? [] {
        guard Int32(name) != nil, let handle = fopen("/proc/self/task/\(name)/children", "r") else { continue }
        var buffer = [CChar](repeating: 0, count: 65536)
        let count = fread(&buffer, 1, buffer.count - 1, handle)
        fclose(handle)
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        result.formUnion(text.split(separator: " ").compactMap { Int32($0.filter(\.isNumber)) })
    }
    return result
}

/// The pid in the file at `path` once it holds one.
func pid(inFile path: String) -> Int32? {
    guard let handle = fopen(path, "r") else { return nil }
    defer { fclose(handle) }
    var buffer = [CChar](repeating: 0, count: 32)
    guard fgets(&buffer, 32, handle) != nil else { return nil }
    let text = String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return Int32(text)
}

/// Runs `body` with a new loop, then closes the loop (which fails while a handle is still open). When either
/// throws, the loop is leaked on purpose (a test that failed may leave a child running): releasing it would stop
/// the whole run on `EventLoop`'s release assertion instead of reporting the failure.
func withLoop(_ body: (EventLoop) throws -> Void) throws {
    let loop = try EventLoop()
    do {
        try body(loop)
        try loop.close()
    } catch {
        _ = Unmanaged.passRetained(loop)  // leaked: see above
        throw error
    }
}

import Glibc
import LifebusIO
import LifebusProtocol

/// MCP's stdio transport: newline-delimited JSON-RPC messages read from standard input and written to standard
/// output (the MCP spec's framing, and ours).
///
/// Owns a reading thread (blocking `read(2)` on the input, split into lines by a `LineFramer` bounded to
/// `maxLineLength`) that hands each line to the loop through its executor, and the writing side, which runs on the
/// loop thread (a blocking `write(2)`: the client reads what we write, and a server with nothing else to do may
/// wait for it). Invariants: lines reach `onLine` in order on the loop thread; `onEnd` runs once, after the last
/// line, when the input ends or fails; a line longer than the limit becomes one `onTooLong` and is dropped.
final class StdioChannel {
    /// The longest message accepted from the client, without its newline.
    static let maxLineLength = 4 << 20

    /// What the loop is told as the input arrives; called on the loop thread.
    struct Handlers {
        var onLine: ([UInt8]) -> Void
        var onTooLong: () -> Void
        var onEnd: () -> Void
    }

    private let loop: EventLoop
    private let input: Int32
    private let output: Int32
    private var outbound: [UInt8] = []

    init(loop: EventLoop, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.loop = loop
        self.input = input
        self.output = output
    }

    /// Starts the reading thread. Call on the loop thread.
    func start(_ handlers: Handlers) {
        let bound = LoopBound(handlers, loop: loop)
        let executor = loop.executor
        let input = input
        DetachedThread.start {
            Self.readLines(from: input) { event in
                executor.execute {
                    switch event {
                    case .line(let bytes): bound.value.onLine(bytes)
                    case .tooLong: bound.value.onTooLong()
                    case .end: bound.value.onEnd()
                    }
                }
            }
        }
    }

    /// Writes one message as one line. Call on the loop thread.
    func send(_ message: RPCMessage) {
        outbound.removeAll(keepingCapacity: true)
        RPCCodec.encode(message, to: &outbound)
        outbound.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < outbound.count {
            let count = outbound.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                return  // the client is gone; the end of its input ends the server
            }
            offset += count
        }
    }

    /// What the reading thread hands to the loop.
    private enum ReadEvent: Sendable {
        case line([UInt8])
        case tooLong
        case end
    }

    /// Runs on the reading thread until the input ends.
    private static func readLines(from input: Int32, _ deliver: (ReadEvent) -> Void) {
        var framer = LineFramer(maxLineLength: maxLineLength)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                do throws(LineTooLong) {
                    try framer.feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { line in
                        deliver(.line(Array(line)))
                    }
                } catch {
                    deliver(.tooLong)
                }
            }
        }
        deliver(.end)
    }
}

/// What one fuzz input tells the harness to do, step by step: a pure reading of the bytes, so the same input always
/// gives the same steps.
///
/// The input is split into lines (each keeping its `\n`; the last may have none). A line's first byte picks what it
/// does; every byte after it is sent as is:
///
/// | first byte | step |
/// |---|---|
/// | `0`…`3` | peer 0…3 sends the rest of the line, in chunks of at most 143 bytes |
/// | `4`…`7` | peer 0…3 sends the rest of the line in chunks of 7 bytes (a line split across many reads) |
/// | `8` | the peer named by the next byte (its value modulo 4) closes its connection |
/// | `9` | the loop runs a few more turns (the broker's answers and timers of zero delay catch up) |
/// | anything else | peer 3 sends the whole line, first byte included |
///
/// A peer connects when it first sends (again after it closed). Its role is whatever its own `hello` says: the seeds
/// (`Fuzz/run` turns `Protocol/examples/*.jsonl` into this form) make peer 0 an app, peer 1 a controller, peer 2 an
/// observer, and peer 3 raw bytes before any `hello`.
struct FuzzScript {
    enum Step: Equatable {
        case send(peer: Int, bytes: ArraySlice<UInt8>, chunk: Int)
        case close(peer: Int)
        case settle
    }

    static let peerCount = 4
    static let largeChunk = 143
    static let smallChunk = 7

    let steps: [Step]

    init(_ input: UnsafeRawBufferPointer) {
        var steps: [Step] = []
        var start = input.startIndex
        while start < input.endIndex {
            var end = start
            while end < input.endIndex && input[end] != 0x0A { end += 1 }
            if end < input.endIndex { end += 1 }  // the newline goes with its line
            steps.append(Self.step(of: Array(input[start..<end])[...]))
            start = end
        }
        self.steps = steps
    }

    private static func step(of line: ArraySlice<UInt8>) -> Step {
        let digit = Int(line[line.startIndex]) - Int(UInt8(ascii: "0"))
        let rest = line.dropFirst()
        switch digit {
        case 0..<4:
            return .send(peer: digit, bytes: rest, chunk: largeChunk)
        case 4..<8:
            return .send(peer: digit - 4, bytes: rest, chunk: smallChunk)
        case 8:
            return .close(peer: Int(rest.first ?? 0) % peerCount)
        case 9:
            return .settle
        default:
            return .send(peer: peerCount - 1, bytes: line, chunk: largeChunk)
        }
    }
}

import LifebusJSON
import LifebusProtocol

/// libFuzzer entry point: one input is one received line.
///
/// Checks that decoding never traps, and that whenever the bytes are JSON, writing the value and parsing the text
/// back gives the same value and never a raw control character; and that every decoded message survives
/// encode → decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let line = UnsafeRawBufferPointer(start: data, count: size)
    let inbound = RPCCodec.decode(line: line)

    if let value = try? JSONParser.parse(line) {
        let text = value.jsonBytes
        precondition(!text.contains { $0 < 0x20 || $0 == 0x7F }, "writer emitted a raw control character")
        guard let reparsed = try? JSONParser.parse(text) else {
            preconditionFailure("written text does not parse: \(value)")
        }
        precondition(reparsed == value, "round trip changed \(value) into \(reparsed)")
    }

    if case .message(let message) = inbound {
        precondition(RPCCodec.decode(line: RPCCodec.encode(message)) == .message(message), "message round trip")
    }
    return 0
}

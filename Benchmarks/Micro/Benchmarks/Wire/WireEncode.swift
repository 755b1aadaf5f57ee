import Benchmark
import LifebusJSON
import LifebusProtocol

/// Encode benchmarks: each kind of line the broker writes, as `RPCPeer` writes it (`WireBenchmark.encoding`). The
/// values are read from `WireSamples` once, when registering.
enum WireEncode {
    static func register() {
        let record = WireEncode.value(WireSamples.transitionRecord, TransitionRecord.init(json:))
        var recordText: [UInt8] = []
        record.write(to: &recordText)
        let callback = WireEncode.value(WireSamples.callbackRequest, CallbackParams.init(json:)) {
            guard case .message(.request(let request)) = RPCCodec.decode(line: Array($0.utf8)) else { return nil }
            return request.params
        }
        let fire = WrittenFireResult(
            eventID: 3, event: "home", completed: true, transitionCount: 1, transitionsText: recordText)
        let hello: JSONValue = [
            "brokerVersion": .string("0.9.0"), "protocolVersion": .integer(1), "role": .string("app"),
            "peer": ["pid": .integer(1234), "uid": .integer(1000)], "profile": .string("ios7"),
        ]

        WireBenchmark.encoding("encode callback request (direct writer)") { buffer in
            callback.writeRequest(id: .number(4217), to: &buffer)
        }
        WireBenchmark.encoding("encode fire answer, 1 transition (journal text reused)") { buffer in
            RPCCodec.encodeSuccess(id: .number(2), to: &buffer, writingResult: fire.write)
        }
        WireBenchmark.encoding("encode hello answer (its JSONValue built before)") { buffer in
            RPCCodec.encode(RPCResponse(id: .number(1), result: .success(hello)), to: &buffer)
        }
        WireBenchmark.encoding("encode empty answer {} (mark, reportMemory)") { buffer in
            RPCCodec.encode(RPCResponse(id: .number(7), result: .success(.object([:]))), to: &buffer)
        }
        WireBenchmark.encoding("encode transition notification (record.json, then the envelope)") { buffer in
            RPCCodec.encode(RPCRequest(id: nil, method: LifebusMethod.transition, params: record.json), to: &buffer)
        }
        WireBenchmark.encoding("encode error answer (invalid params, the error built too)") { buffer in
            let error = RPCError.invalidParams(field: "app", "must be a well-formed app id")
            RPCCodec.encode(RPCResponse(id: .number(2), result: .failure(error)), to: &buffer)
        }
    }

    /// The typed value of a sample: `extract` picks the JSON out of the line (the whole line by default).
    static func value<Value>(
        _ text: String, _ convert: (JSONValue) throws(RPCError) -> Value,
        extract: (String) -> JSONValue? = { try? JSONParser.parse($0) }
    ) -> Value {
        guard let json = extract(text), let value = try? convert(json) else {
            fatalError("the sample does not decode: \(text)")
        }
        return value
    }
}

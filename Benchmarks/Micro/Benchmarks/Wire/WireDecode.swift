import Benchmark
import LifebusJSON
import LifebusProtocol

/// Decode benchmarks: one line's bytes to `RPCCodec.decode(line:)`'s message and on to the typed params or result,
/// the whole of what the broker (or, for what the broker sends, the SDK and observers) does with a line read. Each
/// sample is decoded once when registering and must succeed: a benchmark never measures an error path by mistake.
enum WireDecode {
    static func register() {
        request("hello (app, SDK)", WireSamples.helloApp, HelloParams.init(json:))
        request("hello (controller, CLI)", WireSamples.helloController, HelloParams.init(json:))
        request("fire (CLI)", WireSamples.fire, FireParams.init(json:))
        request("status (CLI)", WireSamples.status, StatusParams.init(json:))
        request("wait (CLI)", WireSamples.wait, WaitParams.init(json:))
        request("history (CLI)", WireSamples.history, HistoryParams.init(json:))
        request("ping (CLI)", WireSamples.ping, EmptyResult.init(json:))
        request("reportMemory (SDK)", WireSamples.reportMemory, ReportMemoryParams.init(json:))
        request("mark (SDK)", WireSamples.mark, MarkParams.init(json:))
        answer("callback answer, canonical (fast path)", WireSamples.callbackAnswerCanonical)
        answer("callback answer, members reordered (general path)", WireSamples.callbackAnswerGeneral)
        request("callback request (SDK reads)", WireSamples.callbackRequest, CallbackParams.init(json:))
        request("transition notification (observer reads)", WireSamples.transitionNotification,
            TransitionRecord.init(json:))
        request("backgroundTaskExpiring notification (SDK reads)", WireSamples.expiringNotification,
            BackgroundTaskExpiringParams.init(json:))
    }

    /// A request or notification: the envelope, then `convert` on its params (`ping`'s absent params read as `{}`).
    static func request<Params>(
        _ name: String, _ line: String, _ convert: @escaping (JSONValue) throws(RPCError) -> Params
    ) {
        let bytes = Array(line.utf8)
        let decode = { () throws(RPCError) -> Params in
            guard case .message(.request(let request)) = RPCCodec.decode(line: bytes) else {
                throw RPCError.invalidRequest("not a request")
            }
            return try convert(request.params ?? .object([:]))
        }
        measure(name, decode)
    }

    /// A callback's answer as the broker's peer reads it: straight from the line's text when written as the SDK
    /// writes it, else the envelope through `decode(line:)` and `CallbackAnswer` from its result.
    static func answer(_ name: String, _ line: String) {
        let bytes = Array(line.utf8)
        let decode = { () throws(RPCError) -> CallbackAnswer in
            let read = bytes.withUnsafeBytes { line in
                RPCCodec.canonicalAnswer(line).flatMap { CallbackAnswer(canonicalText: $0.result) }
            }
            if let read { return read }
            guard case .message(.response(let response)) = RPCCodec.decode(line: bytes) else {
                throw RPCError.invalidRequest("not a response")
            }
            return CallbackAnswer(readingLeniently: try response.result.get())
        }
        measure(name, decode)
    }

    private static func measure<Value>(_ name: String, _ decode: @escaping () throws(RPCError) -> Value) {
        do {
            _ = try decode()
        } catch {
            fatalError("decode \(name): the sample does not decode: \(error.message)")
        }
        Benchmark("decode \(name)", configuration: WireBenchmark.configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try? decode())
            }
        }
    }
}

import Benchmark
import LifebusJSON
import LifebusProtocol

/// Record encoding: a transition record to its journal line, the text the broker writes once per transition and
/// reuses in the `fire` answer (`WrittenFireResult.transitionsText`); the same through a `JSONValue` tree for
/// comparison (what the `transition` notification still pays); a mark record's line.
enum RecordEncode {
    static func register() {
        let transition = WireEncode.value(WireSamples.transitionRecord, TransitionRecord.init(json:))
        let mark = WireEncode.value(WireSamples.markRecord, JournalEntry.init(json:))
        WireBenchmark.encoding("record transition -> journal line (direct writer)") { transition.write(to: &$0) }
        WireBenchmark.encoding("record transition -> journal line (via JSONValue)") { transition.json.write(to: &$0) }
        WireBenchmark.encoding("record mark -> journal line") { mark.write(to: &$0) }
    }
}

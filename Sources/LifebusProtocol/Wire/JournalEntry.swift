public import LifebusJSON

/// One line of the journal (and one element of `HistoryResult.entries`): a transition, a mark, the record that
/// opens a broker run, a process record, or a record of the background life (a task's step, a push's, protected data
/// changing), told apart by the `type` member (`"transition"`, `"mark"`, `"run"`, `"process"`, `"task"`, `"push"` or
/// `"protectedData"`, required when decoding an entry).
///
/// A plain value (`Sendable`). The journal file holds one entry's compact JSON per line, oldest first. The rare,
/// larger records are boxed (`indirect`), so an entry — of which the broker keeps `HistoryParams.retained` in
/// memory — is the size of a transition record, not of the largest kind.
public enum JournalEntry: Sendable, Equatable {
    case transition(TransitionRecord)
    case mark(MarkRecord)
    indirect case run(RunRecord)
    indirect case process(ProcessRecord)
    indirect case task(BackgroundTaskRecord)
    indirect case push(PushDeliveryRecord)
    case protectedData(ProtectedDataRecord)

    public init(json: JSONValue) throws(RPCError) {
        try self.init(reader: try ParamsReader(json))
    }

    init(json: JSONValue, path: String) throws(RPCError) {
        try self.init(reader: try ParamsReader(json, path: path))
    }

    init(reader: ParamsReader) throws(RPCError) {
        switch try reader.string("type") {
        case TransitionRecord.type: self = .transition(try TransitionRecord(reader: reader))
        case MarkRecord.type: self = .mark(try MarkRecord(reader: reader))
        case RunRecord.type: self = .run(try RunRecord(reader: reader))
        case ProcessRecord.type: self = .process(try ProcessRecord(reader: reader))
        case BackgroundTaskRecord.type: self = .task(try BackgroundTaskRecord(reader: reader))
        case PushDeliveryRecord.type: self = .push(try PushDeliveryRecord(reader: reader))
        case ProtectedDataRecord.type: self = .protectedData(try ProtectedDataRecord(reader: reader))
        default:
            throw RPCError.invalidParams(
                field: reader.path("type"),
                "must be \(TransitionRecord.type), \(MarkRecord.type), \(RunRecord.type), \(ProcessRecord.type), "
                    + "\(BackgroundTaskRecord.type), \(PushDeliveryRecord.type) or \(ProtectedDataRecord.type)"
            )
        }
    }

    /// The entry's journal sequence number.
    public var seq: Int64 {
        switch self {
        case .transition(let record): return record.seq
        case .mark(let record): return record.seq
        case .run(let record): return record.seq
        case .process(let record): return record.seq
        case .task(let record): return record.seq
        case .push(let record): return record.seq
        case .protectedData(let record): return record.seq
        }
    }

    /// The app the entry is about; `nil` for a run record and a protected-data record.
    public var app: String? {
        switch self {
        case .transition(let record): return record.app
        case .mark(let record): return record.app
        case .run: return nil
        case .process(let record): return record.app
        case .task(let record): return record.app
        case .push(let record): return record.app
        case .protectedData: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .transition(let record): return record.json
        case .mark(let record): return record.json
        case .run(let record): return record.json
        case .process(let record): return record.json
        case .task(let record): return record.json
        case .push(let record): return record.json
        case .protectedData(let record): return record.json
        }
    }
}

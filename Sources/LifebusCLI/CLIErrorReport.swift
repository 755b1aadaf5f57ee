import LifebusIO
import LifebusJSON
import LifebusProtocol

/// How a `lifebus` command says why it failed, on stderr: `lifebus: MESSAGE` for people, or with `--json` one line
/// `{"error":{"name":NAME,"message":MESSAGE,…}}` for machines (`name` is the broker's `data.name` when the broker
/// refused, else one of the CLI's own: `lifebus.BrokerUnreachable`, `lifebus.UsageError`,
/// `lifebus.OutcomeNotExpected` from `fire --expect`/`--fail-on`). A plain value.
struct CLIErrorReport {
    let json: Bool

    func write(name: String, _ message: String, extra: JSONObject = [:]) {
        guard json else {
            StandardError.writeLine("lifebus: \(message)")
            return
        }
        var error: JSONObject = ["name": .string(name), "message": .string(message)]
        for (key, value) in extra { error.append(key, value) }
        StandardError.writeLine(JSONValue.object(["error": .object(error)]).jsonText)
    }
}

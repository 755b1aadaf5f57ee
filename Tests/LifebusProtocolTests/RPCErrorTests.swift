import LifebusProtocol
import Testing

@Suite struct RPCErrorTests {
    @Test func standardErrorsCarryTheirCodeAndName() {
        let cases: [(RPCError, Int, String)] = [
            (.parseError("x"), -32700, "jsonrpc.ParseError"),
            (.invalidRequest("x"), -32600, "jsonrpc.InvalidRequest"),
            (.methodNotFound("x"), -32601, "jsonrpc.MethodNotFound"),
            (.invalidParams("x"), -32602, "jsonrpc.InvalidParams"),
            (.invalidParams(field: "f", "is wrong"), -32602, "jsonrpc.InvalidParams"),
            (.internalError("x"), -32603, "jsonrpc.InternalError"),
        ]
        for (error, code, name) in cases {
            #expect(error.code == code)
            #expect(error.name == name)
        }
    }

    @Test func methodNotFoundEchoesTheNameOnceAndShort() {
        let short = RPCError.methodNotFound("nope")
        #expect(short.data?["method"] == "nope")
        #expect(!short.message.contains("nope"), "the name is in data.method only")
        let huge = RPCError.methodNotFound(String(repeating: "m", count: 1_000_000))
        #expect(huge.data?["method"]?.stringValue == String(repeating: "m", count: 64) + "…")
        #expect(huge.json.jsonText.utf8.count < 256)
    }

    @Test func echoCutsAtACharacterBoundary() {
        #expect(RPCError.echo(String(repeating: "a", count: 64)) == String(repeating: "a", count: 64))
        // 63 ASCII bytes then a 4-byte scalar that straddles byte 64: the scalar is dropped whole.
        let straddling = String(repeating: "a", count: 63) + "😀" + "tail"
        #expect(RPCError.echo(straddling) == String(repeating: "a", count: 63) + "…")
        #expect(RPCError.echo("") == "")
    }

    @Test func lifebusErrorsPutTheNameFirstAndKeepExtraData() {
        let error = RPCError(.appNotFound, "no such app", data: ["appID": "com.x", "name": "ignored"])
        #expect(error.code == -32005)
        #expect(error.name == "lifebus.AppNotFound")
        #expect(error.data == ["name": "lifebus.AppNotFound", "appID": "com.x"])
        #expect(error.description == "lifebus.AppNotFound (-32005): no such app")
        #expect(error.json == ["code": -32005, "message": "no such app", "data": error.data!])
    }

    @Test func lifebusCodesAreUniqueInTheServerRangeAndNamedInTheLifebusDomain() {
        let all = LifebusErrorCode.all
        #expect(Set(all.map(\.code)).count == all.count)
        #expect(Set(all.map(\.name)).count == all.count)
        for code in all {
            #expect((-32099 ... -32000).contains(code.code))
            #expect(code.name.hasPrefix("lifebus."))
            #expect(LifebusErrorCode(code: code.code) == code)
        }
        #expect(LifebusErrorCode(code: -32700) == nil)
    }

    @Test func theTableMatchesTheSpecifiedCodes() {
        let expected: [(LifebusErrorCode, Int, String)] = [
            (.helloRequired, -32000, "lifebus.HelloRequired"),
            (.alreadyIntroduced, -32001, "lifebus.AlreadyIntroduced"),
            (.unsupportedProtocolVersion, -32002, "lifebus.UnsupportedProtocolVersion"),
            (.notAllowedForRole, -32003, "lifebus.NotAllowedForRole"),
            (.appIDInUse, -32004, "lifebus.AppIDInUse"),
            (.appNotFound, -32005, "lifebus.AppNotFound"),
            (.lineTooLong, -32006, "lifebus.LineTooLong"),
            (.helloTimeout, -32007, "lifebus.HelloTimeout"),
            (.eventRejected, -32008, "lifebus.EventRejected"),
            (.brokerShuttingDown, -32009, "lifebus.BrokerShuttingDown"),
            (.timedOut, -32010, "lifebus.TimedOut"),
            (.connectionClosed, -32011, "lifebus.ConnectionClosed"),
            (.limitExceeded, -32012, "lifebus.LimitExceeded"),
            (.journalUnavailable, -32013, "lifebus.JournalUnavailable"),
            (.unauthorized, -32020, "lifebus.Unauthorized"),
            (.clockNotManual, -32030, "lifebus.ClockNotManual"),
            (.launchFailed, -32031, "lifebus.LaunchFailed"),
            (.scenesUnsupported, -32032, "lifebus.ScenesUnsupported"),
        ]
        #expect(expected.count == LifebusErrorCode.all.count)
        for (code, number, name) in expected {
            #expect(code.code == number)
            #expect(code.name == name)
        }
    }
}

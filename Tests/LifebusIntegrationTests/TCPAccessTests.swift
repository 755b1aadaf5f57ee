import Glibc
import LifebusProtocol
import Testing

/// Loopback TCP is no way around the Unix socket's 0600: a TCP peer needs the token from the 0600 file beside the
/// socket, and a connection that speaks HTTP (a web page's `fetch` to 127.0.0.1) is closed unanswered.
@Suite struct TCPAccessTests {
    @Test func theTokenFileIsPrivateAndHolds64HexDigits() throws {
        let broker = try BrokerFixture(arguments: ["--tcp-port", "0"])
        _ = try broker.tcpPort()
        var status = stat()
        #expect(lstat(broker.socketPath + ".token", &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG)
        #expect(status.st_mode & 0o777 == 0o600)
        let token = try broker.tcpToken()
        #expect(token.utf8.count == 64 && token.utf8.allSatisfy { Array("0123456789abcdef".utf8).contains($0) })
        #expect(broker.stop() == 0)
        #expect(access(broker.socketPath + ".token", F_OK) != 0, "removed at shutdown")
    }

    @Test(arguments: ["", #","token":"0000000000000000000000000000000000000000000000000000000000000000""#,
                      #","token":"short""#, #","token":null"#])
    func aTCPHelloWithoutTheRightTokenIsRefusedAndClosed(token: String) throws {
        let broker = try BrokerFixture(arguments: ["--tcp-port", "0"])
        let client = try RawClient(tcpPort: try broker.tcpPort())
        let answer = client.hello(extra: token)
        #expect(errorName(answer) == "lifebus.Unauthorized", "\(answer ?? "nothing")")
        #expect(errorCode(answer) == -32020)
        #expect(client.waitForClose())
        // Nothing it sent after the refused hello was obeyed.
        let unix = try broker.connect()
        #expect(unix.hello()?.contains("\"result\"") == true, "a Unix-socket peer needs no token")
    }

    @Test func theTokenOfOneRunDoesNotOpenTheNext() throws {
        let first = try BrokerFixture(arguments: ["--tcp-port", "0"])
        _ = try first.tcpPort()
        let old = try first.tcpToken()
        #expect(first.stop() == 0)
        let second = try BrokerFixture(arguments: ["--tcp-port", "0"], socketPath: first.socketPath)
        let client = try RawClient(tcpPort: try second.tcpPort())
        #expect(errorName(client.hello(extra: #","token":"\#(old)""#)) == "lifebus.Unauthorized")
    }

    @Test(arguments: ["GET", "POST", "PUT", "OPTIONS", "HEAD", "DELETE", "CONNECT", "PATCH"])
    func aConnectionThatSpeaksHTTPIsClosedWithoutAnAnswer(method: String) throws {
        let broker = try BrokerFixture(arguments: ["--tcp-port", "0"])
        let token = try broker.tcpToken()
        let client = try RawClient(tcpPort: try broker.tcpPort())
        // What a page's fetch sends: headers, then a body of protocol lines (even with the right token).
        let params = #"{"role":"controller","protocolVersion":1,"token":"\#(token)"}"#
        let hello = #"{"jsonrpc":"2.0","id":1,"method":"hello","params":\#(params)}"#
        let fire = #"{"jsonrpc":"2.0","id":2,"method":"fire","params":{"event":"home"}}"#
        let headers = "\(method) / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n\r\n"
        client.send(Array("\(headers)\(hello)\n\(fire)\n".utf8))
        #expect(client.readLine(timeout: .seconds(5)) == nil, "no line is answered")
        #expect(client.waitForClose())
        let controller = try RawPeer.controller(broker)
        let history = controller.call("history")
        let kinds = history?["result"]?["entries"]?.arrayValue?.map { $0["type"]?.stringValue }
        #expect(kinds == ["run"], "nothing was fired: the journal holds only the record of the broker's start")
    }

    /// Any first line that is not a JSON object or array closes the connection unanswered (not only exact upper-case
    /// HTTP/1 methods): lower-case HTTP, HTTP/2's preface, a bare number, a string, binary; a good peer is served.
    @Test(arguments: [
        Array("get / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8),
        Array("42".utf8), Array(#""str""#.utf8), [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0xFF, 0x80, 0x00],
    ])
    func aFirstLineThatIsNotAJSONObjectOrArrayIsClosedWithoutAnAnswer(opening: [UInt8]) throws {
        let broker = try BrokerFixture(arguments: ["--tcp-port", "0"])
        let token = try broker.tcpToken()
        let port = try broker.tcpPort()
        let client = try RawClient(tcpPort: port)
        let params = #"{"role":"controller","protocolVersion":1,"token":"\#(token)"}"#
        let hello = #"{"jsonrpc":"2.0","id":1,"method":"hello","params":\#(params)}"#
        let fire = #"{"jsonrpc":"2.0","id":2,"method":"fire","params":{"event":"home"}}"#
        client.send(opening + Array("\n\(hello)\n\(fire)\n".utf8))
        #expect(client.readLine(timeout: .seconds(5)) == nil, "no line is answered")
        #expect(client.waitForClose())
        let good = try RawClient(tcpPort: port)
        #expect(parsed(good.hello(extra: #","token":"\#(token)""#))?["result"] != nil, "a good peer is served")
        let controller = try RawPeer.controller(broker)
        let kinds = controller.call("history")?["result"]?["entries"]?.arrayValue?.map { $0["type"]?.stringValue }
        #expect(kinds == ["run"], "nothing was fired")
        #expect(broker.stop() == 0)
    }
}

import LifebusJSON
import LifebusProtocol

/// How the server answers each message: the MCP lifecycle, `tools/list` and `tools/call`; protocol mistakes as
/// JSON-RPC errors.
extension MCPServer {
    func received(_ line: [UInt8]) {
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\t") })
        else { return }
        switch RPCCodec.decode(line: line) {
        case .invalid(let error, let id):
            send(.response(RPCResponse(id: id, result: .failure(error))))
        case .batch:
            send(.response(RPCResponse(id: nil, result: .failure(.invalidRequest("MCP does not use batches")))))
        case .message(.response):
            break  // this server sends the client no requests, so there is nothing to match an answer to
        case .message(.request(let request)):
            if let id = request.id {
                handle(request, id: id)
            } else {
                handleNotification(request)
            }
        }
    }

    private func handle(_ request: RPCRequest, id: RPCID) {
        switch request.method {
        case "initialize":
            respond(id, .success(initializeResult(request.params)))
            initializeAnswered = true
        case "ping":
            respond(id, .success([:]))
        case "tools/list" where initializeAnswered:
            respond(id, .success(["tools": .array(MCPToolCatalog.tools)]))
        case "tools/call" where initializeAnswered:
            callTool(request.params, id: id)
        case "tools/list", "tools/call":
            respond(id, .failure(.invalidRequest("send initialize first")))
        default:
            respond(id, .failure(.methodNotFound(request.method)))
        }
    }

    private func handleNotification(_ request: RPCRequest) {
        switch request.method {
        case "notifications/initialized":
            break  // nothing waits for it: this server sends the client no requests it would have to hold back
        case "notifications/cancelled":
            guard let id = request.params?["requestId"].flatMap(RPCID.init(json:)) else { return }
            cancel(id)
        default:
            break  // other notifications (roots, progress from the client) ask nothing of this server
        }
    }

    private func initializeResult(_ params: JSONValue?) -> JSONValue {
        [
            "protocolVersion": .string(MCPVersion.negotiate(params?["protocolVersion"]?.stringValue)),
            "capabilities": ["tools": ["listChanged": false]],
            "serverInfo": ["name": "lifebus", "title": "Lifebus", "version": .string(LifebusVersion.current)],
            "instructions": """
                Lifebus simulates iOS app lifecycle interruptions for apps connected to its broker. Use fire to \
                inject a call, SMS, lock (sleep), home, memory warning or terminate; wait_for_state to wait until \
                an app reaches a state (e.g. background); history or timeline to see every callback with its \
                latency against its budget. status gives the broker's socket, which apps connect to.
                """,
        ]
    }

    private func callTool(_ params: JSONValue?, id: RPCID) {
        guard let name = params?["name"]?.stringValue else {
            respond(id, .failure(.invalidParams(field: "name", "must name a tool")))
            return
        }
        guard let tool = MCPToolCatalog.Name(rawValue: name) else {
            respond(id, .failure(RPCError(
                code: RPCError.invalidParamsCode, message: "Unknown tool: \(RPCError.echo(name))",
                data: ["name": "jsonrpc.InvalidParams", "tool": .string(RPCError.echo(name))]
            )))
            return
        }
        let arguments: JSONObject
        switch params?["arguments"] {
        case nil, .null?: arguments = [:]
        case .object(let object)?: arguments = object
        case let other?:
            respond(id, .failure(.invalidParams(field: "arguments", "must be an object, not \(other.typeName)")))
            return
        }
        let call = ToolCall(id: id, server: self, progressToken: params?["_meta"]?["progressToken"])
        guard begin(call) else {
            respond(id, .failure(.invalidRequest("too many tool calls in flight, or a duplicate request id")))
            return
        }
        call.run(tool, arguments)
    }
}

/// The lines of the benchmarks: what the CLI, the Swift SDK and the broker write today, member for member (the
/// writers' order), with realistic ids and values. Constants only.
enum WireSamples {
    // Peer → broker: requests.
    static let helloApp =
        #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"role":"app","protocolVersion":1,"#
        + #""app":{"id":"com.example.DeepThoughts","exitsOnSuspend":false,"backgroundModes":["audio"],"#
        + #""launchInBackground":false},"client":"lifebus-swift-sdk"}}"#
    static let helloController =
        #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"role":"controller","protocolVersion":1,"#
        + #""client":"lifebus-cli"}}"#
    static let fire =
        #"{"jsonrpc":"2.0","id":2,"method":"fire","params":{"event":"call","action":"answer","app":null,"#
        + #""level":null,"byUser":false,"wait":true}}"#
    static let status = #"{"jsonrpc":"2.0","id":2,"method":"status","params":{"app":"com.example.DeepThoughts"}}"#
    static let wait =
        #"{"jsonrpc":"2.0","id":2,"method":"wait","params":{"app":"com.example.DeepThoughts","#
        + #""state":["background","suspended"],"timeoutMs":5000.0}}"#
    static let history =
        #"{"jsonrpc":"2.0","id":2,"method":"history","params":{"app":"com.example.DeepThoughts","limit":50}}"#
    static let ping = #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#
    static let reportMemory = #"{"jsonrpc":"2.0","id":7,"method":"reportMemory","params":{"bytes":73400320}}"#
    static let mark =
        #"{"jsonrpc":"2.0","id":8,"method":"mark","params":{"name":"state-restored","data":{"found":true}}}"#

    // App → broker: the answer to a callback request, as every Lifebus peer writes it (the fast path) and with the
    // members in another order (the general path, e.g. a hand-written client).
    static let callbackAnswerCanonical = #"{"jsonrpc":"2.0","id":4217,"result":{"handlerMs":1.234}}"#
    static let callbackAnswerGeneral = #"{"id":4217,"result":{"handlerMs":1.234},"jsonrpc":"2.0"}"#

    // Broker → peers, read by the SDK and by observers (`lifebus watch`).
    static let callbackRequest =
        #"{"jsonrpc":"2.0","id":4217,"method":"didEnterBackground","params":{"callbackID":4217,"#
        + #""callback":"didEnterBackground","state":"background","budgetMs":5000.0,"#
        + #""cause":{"eventID":3,"event":"home"}}}"#
    static let transitionNotification =
        #"{"jsonrpc":"2.0","method":"transition","params":"# + transitionRecord + "}"
    static let expiringNotification =
        #"{"jsonrpc":"2.0","method":"backgroundTaskExpiring","params":{"taskID":12}}"#

    /// One transition record (a journal line, an element of a `fire` answer, a `transition` notification's params).
    static let transitionRecord =
        #"{"type":"transition","seq":17,"app":"com.example.DeepThoughts","pid":1234,"#
        + #""callback":"didEnterBackground","cause":{"eventID":3,"event":"home"},"from":"inactive","#
        + #""to":"background","firedMs":10.5,"sentMs":10.625,"answeredMs":13.125,"handlerMs":2.25,"#
        + #""budgetMs":5000.0,"outcome":"ok","handlerFailed":false,"wallMs":1763780000000}"#
    static let markRecord =
        #"{"type":"mark","seq":18,"app":"com.example.DeepThoughts","pid":1234,"name":"state-restored","#
        + #""data":{"found":true},"atMs":14.5,"wallMs":1763780000004}"#
}

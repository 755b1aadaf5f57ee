import LifebusLifecycle
public import LifebusProtocol

extension ScenarioStep {
    /// The step in one line, as a report shows it: `fire call --answer`, `wait com.example.App suspended`.
    public var summary: String {
        switch self {
        case .launch(let app): "launch \(app)"
        case .relaunch(let app): "relaunch \(app)"
        case .fire(let params): "fire \(params.words.joined(separator: " "))"
        case .advance(let duration): "advance \(DurationText.format(duration))"
        case .wait(let wait): "wait \(wait.app)\(wait.scene.map { " scene \($0.number)" } ?? "") \(wait.statesText)"
        case .expect(let expectation):
            "expect" + (expectation.app.map { " \($0)" } ?? "")
                + (expectation.scene.map { " scene \($0.number)" } ?? "")
        case .kill(let kill): "kill \(kill.app) SIG\(kill.signal)"
        case .note(let text): "note: \(text)"
        }
    }
}

extension FireParams {
    /// The words of `lifebus fire` that send these params (the scenario format's spelling: `terminate ID
    /// --by-user`, the app as an argument); `wait` is not spelled.
    public var words: [String] {
        // An event whose action is a required word, a launch with connection options, a task (its identifier) and a
        // push with a payload are spelled as their label (`scene close X 2`, `power battery`,
        // `bgtask X com.x.refresh`).
        if event.declaration.requiresAction || url != nil || push != nil || identifier != nil || payload != nil {
            return label.split(separator: " ").map(String.init)
        }
        var words = [event.rawValue]
        if let app { words.append(app) }
        if let identifier { words.append(identifier) }  // `bgtask APP ID`
        if let action { words.append("--" + action.rawValue) }
        if let level { words += ["--level", level.rawValue] }
        if byUser { words.append("--by-user") }
        if let payload { words += ["--payload", payload] }  // `push APP --payload JSON`
        return words
    }
}

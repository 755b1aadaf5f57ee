import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The `scene` tool's entry in `tools/list`: the broker's `fire scene` event, its actions and their members.
extension MCPToolCatalog {
    static let sceneStateProperty: JSONValue = [
        "type": "string", "enum": .array(SceneState.allCases.map { .string($0.rawValue) }),
        "description": "A scene state.",
    ]
    static let sceneNumberProperty: JSONValue = [
        "type": "integer", "minimum": 1, "description": "A scene of the app, by its number (see status).",
    ]

    static var sceneDetails: Details {
        Details(
            "Open, close, reclaim, reconnect or focus a scene",
            """
            Act on a scene-based app's windows (a broker profile with scenes: ios13 and later) and, by default, wait \
            until every callback it causes is answered. open: a new window (a new session; needs \
            multipleScenes unless the app has none connected), with url and activity handed to willConnectTo. \
            close: the switcher swipes scene away (without scene: the whole app). reclaim: the system disconnects \
            a background scene to free memory (stateRestorationActivity, sceneDidDisconnect; the session and its \
            payload survive). reconnect: the user reopens session (a new scene, the payload handed back). focus: \
            scene becomes the active one. Returns the transitions with their scene, session, latency, budget and \
            outcome; a refusal is lifebus.EventRejected with its reason (sceneInForeground, \
            multipleScenesUnsupported…).
            """,
            [
                "action": [
                    "type": "string", "enum": .array(FireEvent.scene.declaration.actions.map { .string($0.rawValue) }),
                    "description": "What happens to the scene.",
                ],
                "app": appProperty,
                "scene": [
                    "type": "integer", "minimum": 1,
                    "description":
                        "The scene's number (see status): reclaim and focus need it; close without it closes the app.",
                ],
                "session": [
                    "type": "integer", "minimum": 1, "description": "reconnect only: the session to reopen.",
                ],
                "url": ["type": "string", "minLength": 1, "description": "open only: a URL for willConnectTo."],
                "activity": ["type": "object", "description": "open only: the window's user activity."],
                "wait": [
                    "type": "boolean", "default": true,
                    "description": "Answer once every transition the event caused has completed (default).",
                ],
            ],
            ["action", "app"], false
        )
    }
}

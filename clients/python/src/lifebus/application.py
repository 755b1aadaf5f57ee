"""The app side: ``Application`` (``UIApplication``'s counterpart) serving the broker's callbacks with an
``ApplicationDelegate`` (``UIApplicationDelegate``'s) and, for an app that adopts scenes, a ``SceneDelegate``
(``UIWindowSceneDelegate``'s), as the Swift SDK's ``Application`` does (Protocol §9, §10, §10.1)."""

from __future__ import annotations

import asyncio
import inspect
import os
import sys
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from . import socket_path, wire
from .aio_connection import AsyncConnection
from .errors import LifebusError, ScenesUnsupported
from .records import EventCause

#: What a delegate method or an expiration handler may return: nothing, or an awaitable the app awaits.
MaybeAwaitable = Awaitable[None] | None


@dataclass(frozen=True)
class LaunchOptions:
    """Why and how the app was launched: ``didFinishLaunching``'s options. A plain value."""

    #: Launched straight into the background.
    is_background_launch: bool = False
    #: The controller event that launched the app; ``None`` when it launched by connecting.
    cause: EventCause | None = None
    #: Why (an installed app's relaunch: ``afterJetsam``, ``afterCrash``…; ``user`` when the broker did not say).
    reason: str = "user"
    #: The payload the app saved before its previous process ended (installed apps), else ``None``.
    restoration_state: str | None = None
    #: The broker's whole ``launch`` member (``previousPid``, ``previousEnding``…), or ``None``.
    launch: dict[str, Any] | None = None
    #: The URL the app was launched to open (``UIApplication.LaunchOptionsKey.url``); ``None`` in a scene app.
    url: str | None = None
    #: The tapped notification's payload that launched the app (``.remoteNotification``); ``None`` in a scene app.
    remote_notification: Any = None

    @staticmethod
    def of(params: dict[str, Any]) -> LaunchOptions:
        launch = params.get("launch") if isinstance(params.get("launch"), dict) else None
        given = params.get("launchOptions")
        options: dict[str, Any] = given if isinstance(given, dict) else {}
        return LaunchOptions(
            is_background_launch=params.get("state") == "background",
            cause=params.get("cause"),
            reason=str(launch.get("reason", "user")) if launch else "user",
            restoration_state=launch.get("restorationState") if launch else None,
            launch=launch,
            url=options.get("url"),
            remote_notification=options.get("remoteNotification"),
        )


@dataclass(frozen=True)
class Callback:
    """The callback running now: its name, id, the state it moves the app to, its budget and its cause."""

    name: str
    id: int
    state: str
    budget_ms: float
    cause: EventCause | None


@dataclass
class SceneSession:
    """A scene session (``UISceneSession``): its ``persistent_identifier`` (the broker's session number, kept across
    disconnects and relaunches until discarded) and the restoration payload the broker handed back with its last
    ``willConnectTo`` (any JSON value; ``None`` when none was kept)."""

    persistent_identifier: int
    state_restoration_activity: Any = None


@dataclass
class Scene:
    """A connected scene (``UIWindowScene``): its number (per app, a reconnect makes a new one), its session and its
    ``activation_state`` (``unattached``, ``foregroundInactive``, ``foregroundActive``, ``background``: the state
    while its latest callback runs)."""

    id: int
    session: SceneSession
    activation_state: str = "unattached"


@dataclass(frozen=True)
class SceneConnectionOptions:
    """``UIScene.ConnectionOptions``: a cold start's URL or tapped notification, a new window's user activity, as the
    controller gave them (``launch --url``/``--push``, ``scene open --url --activity``). A plain value."""

    url_contexts: tuple[str, ...] = ()
    notification_response: Any = None
    user_activity: Any = None

    @staticmethod
    def of(options: Any) -> SceneConnectionOptions:
        if not isinstance(options, dict):
            return SceneConnectionOptions()
        return SceneConnectionOptions(
            url_contexts=tuple(str(url) for url in options.get("urlContexts") or ()),
            notification_response=options.get("notificationResponse"),
            user_activity=options.get("userActivity"),
        )


class SceneDelegate:
    """What an app that adopts scenes does at each scene callback (``UIWindowSceneDelegate``); every method does
    nothing unless overridden, and may be a plain function or a coroutine; the broker is answered when it returns
    (Protocol §10.1). Given to ``Application.run``, the app says ``scenes: true`` in ``hello``; its
    ``ApplicationDelegate`` keeps the process-level callbacks and never gets ``did_become_active``,
    ``will_resign_active``, ``did_enter_background`` or ``will_enter_foreground`` — unless the broker's profile has
    no scenes (ios3, ios4, ios7): the app then falls back to the app-delegate life cycle
    (``Application.fell_back_from_scenes``) and none of these methods is called."""

    def will_connect_to(
        self, app: Application, scene: Scene, session: SceneSession, options: SceneConnectionOptions
    ) -> MaybeAwaitable:
        return None

    def restore_interaction_state(self, app: Application, scene: Scene, activity: Any) -> MaybeAwaitable:
        return None

    def scene_will_enter_foreground(self, app: Application, scene: Scene) -> MaybeAwaitable:
        return None

    def scene_did_become_active(self, app: Application, scene: Scene) -> MaybeAwaitable:
        return None

    def scene_will_resign_active(self, app: Application, scene: Scene) -> MaybeAwaitable:
        return None

    def scene_did_enter_background(self, app: Application, scene: Scene) -> MaybeAwaitable:
        return None

    def state_restoration_activity(self, app: Application, scene: Scene) -> Any:
        """What to keep with the scene's session (any JSON value, or an awaitable of one), handed back in its next
        ``will_connect_to`` (``session.state_restoration_activity``); ``None`` keeps nothing."""
        return None

    def scene_did_disconnect(self, app: Application, scene: Scene) -> MaybeAwaitable:
        return None

    def open_url_contexts(self, app: Application, scene: Scene, urls: tuple[str, ...]) -> MaybeAwaitable:
        return None


class ApplicationDelegate:
    """What an app does at each callback; every method does nothing unless overridden. A method may be a plain
    function or a coroutine (``async def``: the way to ``await app.mark(…)`` in it); the broker is answered when it
    returns, with its duration, and an exception it raises is a failed handler (journaled ``handlerFailed``)."""

    def did_finish_launching(self, app: Application, options: LaunchOptions) -> MaybeAwaitable:
        return None

    def did_become_active(self, app: Application) -> MaybeAwaitable:
        return None

    def will_resign_active(self, app: Application) -> MaybeAwaitable:
        return None

    def did_enter_background(self, app: Application) -> MaybeAwaitable:
        return None

    def will_enter_foreground(self, app: Application) -> MaybeAwaitable:
        return None

    def will_terminate(self, app: Application) -> MaybeAwaitable:
        return None

    def did_receive_memory_warning(self, app: Application) -> MaybeAwaitable:
        return None

    def configuration_for_connecting(self, app: Application) -> MaybeAwaitable:
        """A scene app's new session is about to connect (``application(_:configurationForConnecting:options:)``)."""
        return None

    def did_discard_scene_sessions(self, app: Application, sessions: list[int]) -> MaybeAwaitable:
        """A scene app's sessions were discarded (closed in the switcher): their persistent identifiers."""
        return None

    def open_url(self, app: Application, url: str) -> MaybeAwaitable:
        """``application(_:open:options:)``: open ``url`` (an app that does not use scenes, in the foreground)."""
        return None

    def did_receive_notification_response(self, app: Application, payload: Any) -> MaybeAwaitable:
        """``userNotificationCenter(_:didReceive:withCompletionHandler:)``: a notification of the app was tapped;
        ``payload`` is its JSON value. From ``ios13`` a tap that launched the app comes here too, after its payload
        in the launch options or the connecting scene's options: act on one copy."""
        return None

    def will_present_notification(self, app: Application, payload: Any) -> Any:
        """``userNotificationCenter(_:willPresent:withCompletionHandler:)``: a visible notification of the app arrived
        while it is in the foreground (``ios13`` on); ``payload`` is its JSON value. Returns how to present it, a list
        of ``banner``, ``list``, ``sound``, ``badge`` (or an awaitable of one); the default presents nothing, as iOS
        does for an app that does not implement the method: no banner while it is in front."""
        return []

    def restoration_state(self, app: Application) -> str | None:
        """What to hand back at the next launch should the app be killed meanwhile: asked after
        ``did_enter_background`` and ``will_terminate`` return, and saved when not ``None`` (installed apps)."""
        return None


#: Each app-level callback the broker sends, by its wire name, to the app delegate method that serves it; its
#: ``willPresentNotification``'s result is the presentation options the answer carries.
CALLBACKS: dict[str, Callable[[ApplicationDelegate, Application, dict[str, Any]], Any]] = {
    "didFinishLaunching": lambda delegate, app, params: delegate.did_finish_launching(app, LaunchOptions.of(params)),
    "didBecomeActive": lambda delegate, app, params: delegate.did_become_active(app),
    "willResignActive": lambda delegate, app, params: delegate.will_resign_active(app),
    "didEnterBackground": lambda delegate, app, params: delegate.did_enter_background(app),
    "willEnterForeground": lambda delegate, app, params: delegate.will_enter_foreground(app),
    "willTerminate": lambda delegate, app, params: delegate.will_terminate(app),
    "didReceiveMemoryWarning": lambda delegate, app, params: delegate.did_receive_memory_warning(app),
    "configurationForConnecting": lambda delegate, app, params: delegate.configuration_for_connecting(app),
    "didDiscardSceneSessions": lambda delegate, app, params: delegate.did_discard_scene_sessions(
        app, [int(session) for session in params.get("sessions") or ()]
    ),
    "openURL": lambda delegate, app, params: delegate.open_url(app, str(params.get("url", ""))),
    "didReceiveNotificationResponse": lambda delegate, app, params: delegate.did_receive_notification_response(
        app, params.get("payload")
    ),
    "willPresentNotification": lambda delegate, app, params: delegate.will_present_notification(
        app, params.get("payload")
    ),
}

#: Each scene callback, by its wire name, to the scene delegate method that serves it (Protocol §10.1); its
#: ``stateRestorationActivity``'s result is the payload the answer carries.
SCENE_CALLBACKS: dict[str, Callable[[SceneDelegate, Application, Scene, dict[str, Any]], Any]] = {
    "willConnectTo": lambda delegate, app, scene, params: delegate.will_connect_to(
        app, scene, scene.session, SceneConnectionOptions.of(params.get("options"))
    ),
    "restoreInteractionState": lambda delegate, app, scene, params: delegate.restore_interaction_state(
        app, scene, params.get("restoration")
    ),
    "sceneWillEnterForeground": lambda delegate, app, scene, params: delegate.scene_will_enter_foreground(app, scene),
    "sceneDidBecomeActive": lambda delegate, app, scene, params: delegate.scene_did_become_active(app, scene),
    "sceneWillResignActive": lambda delegate, app, scene, params: delegate.scene_will_resign_active(app, scene),
    "sceneDidEnterBackground": lambda delegate, app, scene, params: delegate.scene_did_enter_background(app, scene),
    "stateRestorationActivity": lambda delegate, app, scene, params: delegate.state_restoration_activity(app, scene),
    "sceneDidDisconnect": lambda delegate, app, scene, params: delegate.scene_did_disconnect(app, scene),
    "openURLContexts": lambda delegate, app, scene, params: delegate.open_url_contexts(
        app, scene, SceneConnectionOptions.of(params.get("options")).url_contexts
    ),
}

#: The callbacks an app that falls back from scenes no longer says it implements (its scene delegate's, and the
#: app delegate's that only a scene app gets).
SCENE_ONLY = frozenset({*SCENE_CALLBACKS, "configurationForConnecting", "didDiscardSceneSessions"})

#: The callbacks after which the delegate's restoration state is asked for and saved.
SAVES_RESTORATION = frozenset({"didEnterBackground", "willTerminate"})


class Application:
    """One app on the bus. Owns its id and flags, its connection while ``run`` runs, and the expiration handlers of
    its background tasks. Bound to the event loop ``run`` runs on (``stop`` alone may be called from any thread).

    With ``own_process`` the connection goes through a relay process (``lifebus.relay``): the broker's kills end
    that process and this app's connection, never the caller's process — for an app inside a test run, where a
    watchdog kill, a jetsam or the terminate of a suspended app would otherwise kill the test run itself (the broker
    kills the pid of an app's connection). A program that is the app needs no relay.

    Invariants: ``run`` is called once; ``state`` is the state of the latest callback (``notRunning`` before the
    launch, after ``willTerminate`` and once disconnected); callbacks are served one at a time, in order.
    """

    def __init__(
        self,
        id: str,
        *,
        socket: str | os.PathLike[str] | None = None,
        exits_on_suspend: bool = False,
        background_modes: Sequence[str] = (),
        launch_in_background: bool = False,
        supports_multiple_scenes: bool = False,
        implements: Sequence[str] = (),
        own_process: bool = False,
    ) -> None:
        self.id = id
        self.own_process = own_process
        self.socket_path = socket_path.resolve(socket)
        self.flags = {
            "id": id,
            "exitsOnSuspend": exits_on_suspend,
            "backgroundModes": list(background_modes),
            "launchInBackground": launch_in_background,
        }
        self.supports_multiple_scenes = supports_multiple_scenes
        self.implements = list(implements)
        #: ``True`` once a broker without scenes refused them: the app runs the app-delegate life cycle instead.
        self.fell_back_from_scenes = False
        #: The connected scenes by number, and the sessions the app knows by persistent identifier.
        self.scenes: dict[int, Scene] = {}
        self.sessions: dict[int, SceneSession] = {}
        self._scene_delegate: SceneDelegate | None = None
        self.state = "notRunning"
        self.current_callback: Callback | None = None
        self.restoration_state: str | None = None
        self.terminated = False
        self._delegate = ApplicationDelegate()
        self._connection: AsyncConnection | None = None
        self._serving = asyncio.Lock()
        self._failed = False
        self._expiration_handlers: dict[int, Callable[[], MaybeAwaitable] | None] = {}
        self._early_expirations: set[int] = set()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started = threading.Event()

    async def run(self, delegate: ApplicationDelegate, scene_delegate: SceneDelegate | None = None) -> None:
        """Connects, says ``hello`` as the app, and serves the callbacks with ``delegate`` (and the scene callbacks with
        ``scene_delegate``: the app then adopts scenes) until ``willTerminate`` has been answered, the broker closed
        the connection, or ``stop`` was called; then closes and returns. A broker whose profile has no scenes refuses
        them (``ScenesUnsupported``): the app says ``hello`` again without them and runs the app-delegate life cycle,
        as iOS 12 runs an app with a scene manifest (``fell_back_from_scenes``)."""
        self._delegate = delegate
        self._scene_delegate = scene_delegate
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._started.set()
        connection = await AsyncConnection.open(
            self.socket_path, self._on_request, self._on_notification, through_relay=self.own_process
        )
        self._connection = connection
        try:
            try:
                await connection.call("hello", wire.hello("app", self._hello_flags()))
            except ScenesUnsupported:
                self.fell_back_from_scenes = True
                await connection.call("hello", wire.hello("app", self._hello_flags()))
            ended = [asyncio.create_task(connection.closed.wait()), asyncio.create_task(self._stop.wait())]
            _, pending = await asyncio.wait(ended, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
        finally:
            self.state = "notRunning"
            await connection.close()
            self._connection = None

    def _hello_flags(self) -> dict[str, Any]:
        """The app's flags for ``hello``: with the scene flags while it adopts scenes."""
        flags = dict(self.flags)
        implements = self.implements
        if self._scene_delegate is not None and not self.fell_back_from_scenes:
            flags["scenes"] = True
            flags["multipleScenes"] = self.supports_multiple_scenes
        else:
            implements = [callback for callback in implements if callback not in SCENE_ONLY]
        if implements:
            flags["implements"] = implements
        return flags

    def stop(self) -> None:
        """Ends ``run`` (from any thread): the connection closes, as if the process ended."""
        self._started.wait(5.0)
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stop.set)

    async def mark(self, name: str, data: dict[str, Any] | None = None) -> None:
        """Reports a fact (e.g. ``state-saved``) the broker journals and shows to observers; returns once journaled."""
        await self._call("mark", {"name": name, "data": data} if data else {"name": name})

    async def report_memory(self, bytes: int) -> None:
        """Tells the broker the app's footprint (jetsam ends the largest first)."""
        await self._call("reportMemory", {"bytes": bytes})

    async def save_restoration_state(self, state: str) -> None:
        """Hands the broker a payload (≤ 64 KiB) to give back at the next launch (installed apps only)."""
        await self._call("saveRestorationState", {"state": state})

    async def begin_background_task(
        self, name: str | None = None, expiration_handler: Callable[[], MaybeAwaitable] | None = None
    ) -> int:
        """Asks for time to finish work in the background; ``expiration_handler`` runs when the time is up and
        should end the task. Returns the task's id."""
        answer = await self._call("beginBackgroundTask", {"name": name} if name else {})
        task = int(answer["taskID"])
        self._expiration_handlers[task] = expiration_handler
        if task in self._early_expirations:
            self._early_expirations.discard(task)
            await _settle(expiration_handler() if expiration_handler else None)
        return task

    async def end_background_task(self, task: int) -> None:
        self._expiration_handlers.pop(task, None)
        await self._call("endBackgroundTask", {"taskID": task})

    def report_handler_failure(self) -> None:
        """Says the running callback failed: its answer carries ``handlerFailed`` (outside a callback, nothing)."""
        if self.current_callback is not None:
            self._failed = True

    async def _call(self, method: str, params: dict[str, Any]) -> Any:
        if self._connection is None:
            raise LifebusError(-32011, f"{self.id} is not connected", {"name": "lifebus.ConnectionClosed"})
        return await self._connection.call(method, params)

    async def _on_request(self, method: str, params: Any, ident: Any) -> None:
        connection = self._connection
        if connection is None:
            return
        handler: Callable[[], Any] | None = None
        if isinstance(params, dict):
            handler = self._handler(method, params)
        if handler is None or not isinstance(params, dict):
            await connection.respond_error(ident, -32601, f"{self.id} serves no method {method}")
            return
        async with self._serving:
            await connection.respond(ident, await self._serve(method, handler, params))
        if method == "willTerminate":
            self.terminated = True
            if self._stop is not None:
                self._stop.set()

    def _handler(self, method: str, params: dict[str, Any]) -> Callable[[], Any] | None:
        """What serves callback ``method``: the app delegate's method, or for a scene callback the scene delegate's
        (on the scene the params name, made or updated when it runs); ``None`` for a method no delegate serves."""
        app_handler = CALLBACKS.get(method)
        if app_handler is not None:
            delegate = self._delegate
            return lambda: app_handler(delegate, self, params)
        scene_handler = SCENE_CALLBACKS.get(method)
        scene_delegate = self._scene_delegate
        if scene_handler is None or scene_delegate is None:
            return None
        return lambda: scene_handler(scene_delegate, self, self._scene_of(params), params)

    def _scene_of(self, params: dict[str, Any]) -> Scene:
        """The scene a scene callback names, with its session and its state while the callback runs."""
        number, session_id = int(params.get("scene", 0)), int(params.get("session", 0))
        session = self.sessions.setdefault(session_id, SceneSession(session_id))
        if params.get("callback", "") == "willConnectTo" or "restoration" in params:
            session.state_restoration_activity = params.get("restoration")
        scene = self.scenes.setdefault(number, Scene(number, session))
        scene.activation_state = str(params.get("sceneState", scene.activation_state))
        return scene

    async def _serve(self, method: str, handler: Callable[[], Any], params: dict[str, Any]) -> dict[str, Any]:
        self.state = str(params.get("state", self.state))
        self.current_callback = Callback(
            method, int(params.get("callbackID", 0)), self.state, float(params.get("budgetMs", 0)), params.get("cause")
        )
        if method == "didFinishLaunching":
            self.restoration_state = LaunchOptions.of(params).restoration_state
        self._failed = False
        start = time.perf_counter()
        returned: Any = None
        try:
            outcome = handler()
            returned = await outcome if inspect.isawaitable(outcome) else outcome
            if method in SAVES_RESTORATION:
                saved = self._delegate.restoration_state(self)
                if saved is not None:
                    await self.save_restoration_state(saved)
        except Exception:
            traceback.print_exc()
            self._failed = True
        handler_ms = (time.perf_counter() - start) * 1000
        self.current_callback = None
        if method == "willTerminate":
            self.state = "notRunning"
            self._expiration_handlers.clear()
            self.scenes.clear()
        if method == "sceneDidDisconnect":
            self.scenes.pop(int(params.get("scene", 0)), None)
        if method == "didDiscardSceneSessions":
            for session in params.get("sessions") or ():
                self.sessions.pop(int(session), None)
        answer: dict[str, Any] = {"handlerMs": handler_ms, "handlerFailed": self._failed}
        if method == "stateRestorationActivity" and returned is not None:
            answer["restoration"] = returned
        if method == "willPresentNotification" and returned:
            answer["presentation"] = [str(option) for option in returned]
        return answer

    async def _on_notification(self, method: str, params: Any) -> None:
        if method != "backgroundTaskExpiring" or not isinstance(params, dict):
            return
        task = int(params.get("taskID", 0))
        if task not in self._expiration_handlers:
            self._early_expirations.add(task)
            return
        handler = self._expiration_handlers[task]
        await _settle(handler() if handler else None)


def main(
    id: str, delegate: ApplicationDelegate, scene_delegate: SceneDelegate | None = None, **options: Any
) -> NoReturn:
    """Runs the app (``Application(id, **options).run(delegate, scene_delegate)``) and exits: 0 after
    ``willTerminate``, 1 when the connection ended otherwise (the broker went away) or could not be made."""
    app = Application(id, **options)
    try:
        asyncio.run(app.run(delegate, scene_delegate))
    except LifebusError as error:
        print(f"{id}: {error}", file=sys.stderr)
        sys.exit(1)
    sys.exit(0 if app.terminated else 1)


async def _settle(outcome: MaybeAwaitable) -> None:
    if inspect.isawaitable(outcome):
        await outcome

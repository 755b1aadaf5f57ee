import LifebusIO
import LifebusLifecycle
import LifebusProtocol

/// What the I/O thread hands to the main actor: callbacks, task expirations, a lost connection.
extension Application {
    /// Runs the delegate method for one callback and measures it; the answer goes back to the broker.
    func deliver(_ callback: CallbackParams) async -> CallbackAnswer {
        state = callback.state
        currentCallback = callback
        currentCallbackFailed = false
        let start = EventLoop.monotonicNanoseconds()
        var restoration: String?
        var result: BackgroundFetchResult?
        var presentation: NotificationPresentationOptions?
        if callback.callback.scope == .scene {
            if let sceneDelegate { restoration = await deliverScene(callback, to: sceneDelegate) }
        } else if let delegate {
            switch callback.callback {
            case .didFinishLaunching:
                restorationState = callback.launch?.restorationState
                await delegate.didFinishLaunching(self, options: LaunchOptions(callback))
            case .didBecomeActive: await delegate.didBecomeActive(self)
            case .willResignActive: await delegate.willResignActive(self)
            case .didEnterBackground:
                await delegate.didEnterBackground(self)
                await saveRestorationState(from: delegate)
            case .willEnterForeground: await delegate.willEnterForeground(self)
            case .willTerminate:
                await delegate.willTerminate(self)
                await saveRestorationState(from: delegate)
            case .didReceiveMemoryWarning:
                await delegate.didReceiveMemoryWarning(self)
                notifyMemoryWarningObservers()
            case .configurationForConnecting: await delegate.configurationForConnecting(self)
            case .didDiscardSceneSessions:
                await delegate.didDiscardSceneSessions(self, sessions: discardSessions(callback.sessions))
            case .willConnectTo, .restoreInteractionState, .sceneWillEnterForeground, .sceneDidBecomeActive,
                .sceneWillResignActive, .sceneDidEnterBackground, .stateRestorationActivity, .sceneDidDisconnect,
                .openURLContexts:
                break  // scene callbacks: the scene delegate's, above
            case .protectedDataWillBecomeUnavailable: await delegate.protectedDataWillBecomeUnavailable(self)
            case .protectedDataDidBecomeAvailable:
                protectedData.set(available: true)
                await delegate.protectedDataDidBecomeAvailable(self)
            case .didReceiveRemoteNotification:
                result = await delegate.didReceiveRemoteNotification(
                    self, payload: callback.background?.payload ?? "{}")
            case .performBackgroundTask:
                if let identifier = callback.background?.identifier {
                    taskScheduler.perform(identifier: identifier, kind: callback.background?.kind ?? .appRefresh)
                }
            case .backgroundTaskWillExpire:
                if let identifier = callback.background?.identifier { taskScheduler.expire(identifier: identifier) }
            case .openURL:
                if let url = callback.background?.url { await delegate.open(self, url: url) }
            case .didReceiveNotificationResponse:
                await delegate.didReceiveNotificationResponse(self, payload: callback.background?.payload ?? "{}")
            case .willPresentNotification:
                let options = await delegate.willPresentNotification(
                    self, payload: callback.background?.payload ?? "{}")
                presentation = options.isEmpty ? nil : options  // none: the answer says nothing
            }
        }
        let handlerMs = Double(EventLoop.monotonicNanoseconds() - start) / 1_000_000
        currentCallback = nil
        if callback.callback == .willTerminate {
            state = .notRunning
            expirationHandlers.removeAll()
            taskScheduler.ended()
            scenesEnded()
        }
        return CallbackAnswer(
            handlerMs: handlerMs, handlerFailed: currentCallbackFailed, restoration: restoration, result: result,
            presentation: presentation)
    }

    /// Sends what the delegate wants restored, if anything (a refusal, e.g. for an app the broker did not install,
    /// is the broker's to log; the callback goes on).
    private func saveRestorationState(from delegate: any ApplicationDelegate) async {
        guard let state = delegate.restorationState(self) else { return }
        try? await saveRestorationState(state)
    }

    /// Says that the callback running now failed (the answer carries `handlerFailed`; the broker journals it).
    /// Outside a callback it does nothing.
    public func reportHandlerFailure() {
        guard currentCallback != nil else { return }
        currentCallbackFailed = true
    }

    /// The broker went away: the app is no longer running as far as the bus knows; its tasks ended with it.
    func connectionLost() {
        state = .notRunning
        taskScheduler.ended()
        scenesEnded()
        expirationHandlers.removeAll()
        earlyExpirations.removeAll()
    }

    /// Runs the expiration handler of a task the broker is about to end.
    func backgroundTaskExpiring(_ task: BackgroundTaskIdentifier) {
        guard let entry = expirationHandlers[task] else {
            earlyExpirations.insert(task)
            return
        }
        entry?()
    }
}

/// Memory-warning observers: for objects other than the delegate (as `UIApplicationDidReceiveMemoryWarning-
/// Notification` lets model objects react). They run on the main actor, in the order they were added, right after
/// the delegate's `didReceiveMemoryWarning` returns and before the broker is answered.
extension Application {
    /// Adds an observer; keep the token to remove it.
    ///
    /// - Parameter handler: Runs on the main actor at each memory warning, after the delegate's method.
    /// - Returns: The token that removes the observer (``Application/removeObserver(_:)``).
    @discardableResult
    public func addMemoryWarningObserver(_ handler: @escaping @MainActor () -> Void) -> ObserverToken {
        nextObserverNumber += 1
        let token = ObserverToken(number: nextObserverNumber)
        memoryWarningObservers.append((token, handler))
        return token
    }

    /// Removes an observer; removing one twice does nothing.
    ///
    /// - Parameter token: What ``Application/addMemoryWarningObserver(_:)`` or ``Application/addObserver(for:_:)``
    ///   returned.
    public func removeObserver(_ token: ObserverToken) {
        memoryWarningObservers.removeAll { $0.token == token }
        notificationObservers.removeAll { $0.token == token }
    }

    /// The number of memory-warning observers registered.
    public var memoryWarningObserverCount: Int { memoryWarningObservers.count }

    func notifyMemoryWarningObservers() {
        for observer in memoryWarningObservers {
            observer.handler()
        }
    }
}

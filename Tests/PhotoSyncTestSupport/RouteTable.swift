import Synchronization

/// `TestHTTPServer`'s scripted routes and request log, shared between the
/// test (writing routes, reading the log) and the server's handler.
final class RouteTable: Sendable {
    enum Route {
        /// Responses in order, the last one repeating; `served` counts requests so far.
        case sequence([TestResponse], served: Int)
        case handler(@Sendable (RecordedRequest) -> TestResponse)
    }

    private struct State {
        var routes: [String: Route] = [:]
        var requests: [RecordedRequest] = []
    }

    private let state = Mutex(State())

    func set(_ path: String, _ route: Route) {
        if case .sequence(let responses, _) = route {
            precondition(!responses.isEmpty, "a route needs at least one response")
        }
        state.withLock { $0.routes[path] = route }
    }

    var requests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// Records `request` and answers it; unknown paths get 404.
    /// A handler runs outside the lock, so it may read `requests`.
    func respond(to request: RecordedRequest) -> TestResponse {
        let route = state.withLock { state -> Route? in
            state.requests.append(request)
            let route = state.routes[request.path]
            if case .sequence(let responses, let served)? = route {
                state.routes[request.path] = .sequence(responses, served: served + 1)
            }
            return route
        }
        switch route {
        case .sequence(let responses, let served)?:
            return responses[min(served, responses.count - 1)]
        case .handler(let handler)?:
            return handler(request)
        case nil:
            return .status(404)
        }
    }
}

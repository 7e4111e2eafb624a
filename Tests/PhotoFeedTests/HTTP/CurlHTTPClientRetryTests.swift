import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Retry decisions: what is retried, how often, with which delay.
@Suite(.onTestThreads) struct CurlHTTPClientRetryTests {
    @Test func retriesServerErrorsUntilSuccess() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .status(500), .status(502), .text("ok"))
            let sleeps = SleepRecorder()

            let response = try await makeClient(sleeps, retries: 3).fetch(server.url("/rest")).get()

            #expect(response.body == Array("ok".utf8))
            #expect(server.requests.count == 3)
            #expect(sleeps.recorded.count == 2)
        }
    }

    @Test func honoursRetryAfterOn429() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .status(429, headers: ["Retry-After": "7"]), .text("ok"))
            let sleeps = SleepRecorder()

            let response = try await makeClient(sleeps, retries: 3).fetch(server.url("/rest")).get()

            #expect(response.status == 200)
            #expect(server.requests.count == 2)
            #expect(sleeps.recorded == [7])
        }
    }

    @Test func aRetryAfterLongerThanTheLongestWaitEndsTheCall() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .status(503, headers: ["Retry-After": "121"]), .text("ok"))
            let sleeps = SleepRecorder()

            let result = await makeClient(sleeps, retries: 3, longestRetryAfter: 120).fetch(server.url("/rest"))

            #expect(result.failure == .retryLater(seconds: 121))
            #expect(server.requests.count == 1)
            #expect(sleeps.recorded.isEmpty)
        }
    }

    @Test func withoutALongestWaitALongRetryAfterIsWaitedCapped() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .status(429, headers: ["Retry-After": "3600"]), .text("ok"))
            let sleeps = SleepRecorder()

            let response = try await makeClient(sleeps, retries: 3).fetch(server.url("/rest")).get()

            #expect(response.status == 200)
            #expect(sleeps.recorded == [30], "capped at the back-off's maxDelay")
        }
    }

    @Test func neverRetriesOtherClientErrors() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .status(404), .text("never reached"))
            let sleeps = SleepRecorder()

            let result = await makeClient(sleeps, retries: 3).fetch(server.url("/rest"))

            #expect(result.failure == .status(404))
            #expect(server.requests.count == 1)
            #expect(sleeps.recorded.isEmpty)
        }
    }

    @Test func exhaustedRetriesReportTheLastStatus() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .status(500), .status(502), .status(503), .text("too late"))
            let sleeps = SleepRecorder()

            let result = await makeClient(sleeps, retries: 2).fetch(server.url("/rest"))

            #expect(result.failure == .status(503))
            #expect(server.requests.count == 3)
            #expect(sleeps.recorded.count == 2)
        }
    }

    @Test func backOffGrowsBetweenAttempts() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .status(503))
            let sleeps = SleepRecorder()

            _ = await makeClient(sleeps, retries: 3).fetch(server.url("/rest"))

            // baseDelay 0.01 with equal jitter: attempt n waits within [0.01·2ⁿ⁻², 0.01·2ⁿ⁻¹].
            let delays = sleeps.recorded
            #expect(delays.count == 3)
            for (index, delay) in delays.enumerated() {
                let step = 0.01 * Double(1 << index)
                #expect(delay >= step / 2 && delay <= step)
            }
        }
    }

    @Test func connectionRefusedIsRetriedThenReported() async throws {
        let port = try closedLoopbackPort()
        let sleeps = SleepRecorder()

        let result = await makeClient(sleeps, retries: 2).fetch("http://127.0.0.1:\(port)/rest")

        guard case .connection = result.failure else {
            Issue.record("expected a connection error, got \(result)")
            return
        }
        #expect(sleeps.recorded.count == 2)
    }
}

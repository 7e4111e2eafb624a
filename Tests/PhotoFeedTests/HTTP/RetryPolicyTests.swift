@testable import PhotoFeed
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct RetryPolicyTests {
    let policy = RetryPolicy(baseDelay: 1, maxDelay: 30)

    @Test(arguments: 1...5)
    func backOffGrowsExponentiallyWithEqualJitter(attempt: Int) {
        let step = Double(1 << (attempt - 1))
        for _ in 0..<50 {
            let delay = policy.delay(forAttempt: attempt, retryAfter: nil)
            #expect(delay >= step / 2 && delay <= step)
        }
    }

    @Test func backOffIsCappedAtMaxDelay() {
        #expect(policy.delay(forAttempt: 10, retryAfter: nil) <= 30)
        #expect(policy.delay(forAttempt: 10_000, retryAfter: nil) <= 30)
    }

    @Test func jitterSpreadsTheDelays() {
        let delays = Set((0..<20).map { _ in policy.delay(forAttempt: 4, retryAfter: nil) })
        #expect(delays.count > 1)
    }

    @Test func retryAfterIsHonouredExactly() {
        #expect(policy.delay(forAttempt: 1, retryAfter: 7) == 7)
        #expect(policy.delay(forAttempt: 5, retryAfter: 0) == 0)
    }

    @Test func retryAfterIsCappedAtMaxDelay() {
        #expect(policy.delay(forAttempt: 1, retryAfter: 3600) == 30)
    }

    @Test func retryAfterHeaderInSeconds() {
        #expect(RetryAfter.seconds(from: "120") == 120)
        #expect(RetryAfter.seconds(from: " 5 ") == 5)
        #expect(RetryAfter.seconds(from: "-3") == 0)
    }

    @Test func retryAfterHeaderAsHTTPDate() {
        // 784111777 is Sun, 06 Nov 1994 08:49:37 GMT (RFC 9110's example date).
        let seconds = RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 - 90)
        #expect(seconds == 90)
        #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 + 90) == 0)
    }

    @Test func unreadableRetryAfterIsIgnored() {
        #expect(RetryAfter.seconds(from: "soon") == nil)
    }
}

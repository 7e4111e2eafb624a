import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// Issue 14, defect 4: the key in any form, URL user information and credential parameters.
@Suite("Secret redaction", .onTestThreads)
struct SecretsTests {
    let key = "KEY-0123456789abcdef"

    @Test func theKeyInsideLongerWordsIsRedacted() {
        #expect(Secrets.redact("reason: id KEY-0123456789abcdef-x is bad", secrets: [key]) == "reason: id [redacted]-x is bad")
        #expect(Secrets.redact("xKEY-0123456789abcdefy", secrets: [key]) == "x[redacted]y")
    }

    @Test func aCutExcerptOfTheKeyIsRedacted() {
        #expect(Secrets.redact("body starts with 'KEY-0123456789a'", secrets: [key]) == "body starts with '[redacted]'")
        #expect(Secrets.redact("abcdefg KEY-012", secrets: [key]) == "abcdefg KEY-012")
    }

    @Test func percentEncodedKeysAreRedacted() {
        let odd = "s3cr/et+key=1"
        #expect(Secrets.redact("GET /?k2=s3cr%2Fet%2Bkey%3D1 and s3cr%2fet%2bkey%3d1", secrets: [odd]) == "GET /?k2=[redacted] and [redacted]")
        #expect(Secrets.redact("s3cr/et+key=1", secrets: [odd]) == "[redacted]")
    }

    @Test func urlUserInformationIsRedacted() {
        #expect(Secrets.redact("fetching http://user:pass@host/rest/", secrets: []) == "fetching http://REDACTED@host/rest/")
        #expect(Secrets.redact("catalog postgresql://ps:pw@h/db", secrets: []) == "catalog postgresql://ps:***@h/db")
        #expect(Secrets.redact("see https://token@example.com/a?b=1", secrets: []) == "see https://REDACTED@example.com/a?b=1")
        #expect(Secrets.redact("mail ana@example.com", secrets: []) == "mail ana@example.com")
        #expect(Secrets.redact("catalog postgresql://ps@h/db", secrets: []) == "catalog postgresql://ps@h/db")
    }

    @Test(arguments: ["api_key", "key", "token", "secret", "signature", "auth", "API_KEY", "oauth_token", "api_sig", "password", "sslpassword"])
    func credentialParametersAreRedacted(name: String) {
        #expect(Secrets.redact("http://h/r?page=1&\(name)=v4lue&x=2", secrets: []) == "http://h/r?page=1&\(name)=REDACTED&x=2")
    }

    @Test func otherParametersAndWordsStay() {
        #expect(Secrets.redact("http://h/r?monkey=1&keys=2&page=3", secrets: []) == "http://h/r?monkey=1&keys=2&page=3")
        #expect(Secrets.redact("database is locked", secrets: ["k"]) == "database is locked")
    }
}

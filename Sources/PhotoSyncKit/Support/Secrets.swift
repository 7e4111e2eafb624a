import Foundation
import PhotoFeed
import Synchronization

/// The secrets this process knows (the API key from a flag, the environment or the config file),
/// and the one redaction every line passes through before it reaches stdout, stderr, the log file
/// or the catalog.
enum Secrets {
    private static let known = Mutex<[String]>([])

    /// Shorter secrets are redacted only where they stand as a whole token: blanking a one-letter
    /// test key everywhere would garble every message ("locked").
    static let minimumLengthAnywhere = 4

    /// Remembers `secret` (nil and empty are ignored) so every later line is redacted.
    static func register(_ secret: String?) {
        guard let secret, !secret.isEmpty else { return }
        known.withLock { if !$0.contains(secret) { $0.append(secret) } }
    }

    /// `text` with every known secret (raw, percent-encoded, inside longer words), URL user
    /// information and credential parameters replaced.
    static func redact(_ text: String) -> String {
        redact(text, secrets: known.withLock { $0 })
    }

    static func redact(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets {
            for form in forms(of: secret) {
                result = replace(form, in: result, anywhere: secret.count >= minimumLengthAnywhere)
            }
            if secret.count >= minimumFragment { result = replaceFragments(of: secret, in: result) }
        }
        return URLRedaction.redact(result)
    }

    /// A cut excerpt of a body that started with the key (`body starts with 'S3cretKey012345'`)
    /// holds most of it: any run of this many characters of the key is redacted too.
    static let minimumFragment = 8

    /// `text` with every run of at least `minimumFragment` characters that also appears in `secret` replaced.
    private static func replaceFragments(of secret: String, in text: String) -> String {
        let (characters, key) = (Array(text), Array(secret))
        var result = ""
        var index = 0
        while index < characters.count {
            let length = longestRun(in: characters, at: index, within: key)
            if length >= minimumFragment {
                result += "[redacted]"
                index += length
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return result
    }

    /// The length of the longest run starting at `start` in `characters` that appears somewhere in `key`.
    private static func longestRun(in characters: [Character], at start: Int, within key: [Character]) -> Int {
        var best = 0
        for offset in key.indices where key[offset] == characters[start] {
            var length = 0
            while start + length < characters.count, offset + length < key.count, characters[start + length] == key[offset + length] {
                length += 1
            }
            best = max(best, length)
        }
        return best
    }

    /// The spellings a key takes in text: as is, and percent-encoded in upper and lower case.
    private static func forms(of secret: String) -> [String] {
        var forms = [secret]
        for allowed in [CharacterSet.alphanumerics, .urlQueryAllowed] {
            guard let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) else { continue }
            forms += [encoded, lowercasingEscapes(encoded)]
        }
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }.sorted { $0.count > $1.count }
    }

    private static func lowercasingEscapes(_ encoded: String) -> String {
        encoded.replacing(/%[0-9A-F]{2}/) { $0.output.lowercased() }
    }

    private static func replace(_ secret: String, in text: String, anywhere: Bool) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.firstRange(of: secret) {
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : nil
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
            let isToken = !(before.map(isKeyCharacter) ?? false) && !(after.map(isKeyCharacter) ?? false)
            result += rest[..<range.lowerBound] + (anywhere || isToken ? "[redacted]" : secret)
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    private static func isKeyCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
    }
}

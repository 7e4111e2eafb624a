import Foundation
import Yams

/// The YAML config file, checked strictly: a typo in a cron job's config should fail loudly, not be ignored.
struct ConfigFile: Sendable {
    let path: String
    let settings: SettingsLayer
    /// Problems worth a line on stderr that don't stop the run.
    let warnings: [String]

    /// Reads and checks the file at `path`; every problem is a `.configuration` error naming the file.
    static func load(path: String) throws(PhotoSyncError) -> ConfigFile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw .configuration("config \(path): \(reason)")
        }
        let settings = try parse(text, path: path)
        return ConfigFile(path: path, settings: settings, warnings: permissionWarnings(path: path, settings: settings))
    }

    /// Parses the file's text; `path` only names the file in errors.
    static func parse(_ text: String, path: String) throws(PhotoSyncError) -> SettingsLayer {
        func failure(_ message: String) -> PhotoSyncError { .configuration("config \(path): \(message)") }

        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw failure("invalid YAML: \(yamlProblem(error))")
        }
        guard let root else { return SettingsLayer() }
        guard let mapping = root.mapping else { throw failure("expected \"key: value\" lines at the top level") }

        var layer = SettingsLayer()
        for (keyNode, valueNode) in mapping {
            let name = keyNode.scalar?.string ?? ""
            guard let key = SettingKey(rawValue: name) else { throw failure(unknownKeyMessage(name)) }
            if valueNode.null != nil { continue }
            let line = valueNode.mark.map { " (line \($0.line))" } ?? ""
            guard let scalar = valueNode.scalar else {
                throw failure("\(name): expected a single value, not a list or mapping\(line)")
            }
            do {
                try layer.set(key, from: scalar.string)
            } catch {
                throw failure("\(name): \(error.description)\(line)")
            }
        }
        return layer
    }

    /// libyaml's problem and line, without the multi-line snippet Yams adds to its description.
    private static func yamlProblem(_ error: any Error) -> String {
        switch error as? YamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            "\(problem) (line \(mark.line))"
        default:
            String(String(describing: error).split(whereSeparator: \.isNewline).first ?? "")
        }
    }

    private static func unknownKeyMessage(_ name: String) -> String {
        let known = SettingKey.allCases.map(\.rawValue)
        let nearest = known.min { editDistance(name, $0) < editDistance(name, $1) }
        if let nearest, editDistance(name, nearest) <= 2 {
            return "unknown key \"\(name)\" (did you mean \"\(nearest)\"?)"
        }
        return "unknown key \"\(name)\" (known keys: \(known.joined(separator: ", ")))"
    }

    /// An API key in a file others can read is a leaked key; say so without refusing to run.
    private static func permissionWarnings(path: String, settings: SettingsLayer) -> [String] {
        var info = stat()
        guard settings.apiKey != nil, stat(path, &info) == 0, info.st_mode & 0o044 != 0 else { return [] }
        return ["config \(path) holds an api_key and is readable by other users; run: chmod 600 \(path)"]
    }
}

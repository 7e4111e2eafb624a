import Foundation
import GraphStore

extension Catalog {
    /// Every photographer's name, unsorted: what a typed `--photographer` is matched against
    /// (cheaper than `photographers()`, which also counts photos).
    func photographerNames() throws -> [String] {
        try withContext { context in
            try context.fetchColumns(FetchRequest<Photographer>(), [\.$name]).values(\.$name)
        }
    }

    /// Whether a photographer has exactly this name (one indexed lookup).
    func hasPhotographer(named name: String) throws -> Bool {
        try withContext { context in
            try context.count(FetchRequest<Photographer>(predicate: \.$name == name, limit: 1)) > 0
        }
    }

    /// What deletes excluded: photographers first (by name), then photo ids (by id), each with
    /// when and by which kind of delete.
    public func exclusions() throws -> [ExclusionListing] {
        try withContext { context in
            try context.readingOneSnapshot {
                let people = try context.fetch(FetchRequest<ExcludedPhotographer>(sortBy: [.ascending(\.$name)]))
                let photos = try context.fetch(FetchRequest<ExcludedPhoto>(sortBy: [.ascending(\.$unique)]))
                return people.map { ExclusionListing(kind: .photographer, value: $0.name, excluded: $0.excluded, photographer: nil) }
                    + photos.map { ExclusionListing(kind: .photo, value: $0.unique, excluded: $0.excluded, photographer: $0.photographer) }
            }
        }
    }

    /// When a delete excluded this photographer (exact name), or nil.
    func exclusion(ofPhotographer name: String) throws -> Date? {
        try withContext { context in
            try context.fetch(FetchRequest<ExcludedPhotographer>(predicate: \.$name == name, limit: 1)).first?.excluded
        }
    }

    /// When a delete excluded this photo id, or nil.
    func exclusion(ofPhoto id: String) throws -> Date? {
        try withContext { context in
            try context.fetch(FetchRequest<ExcludedPhoto>(predicate: \.$unique == id, limit: 1)).first?.excluded
        }
    }
}

/// One thing a delete excluded: a photographer, or a photo id.
public struct ExclusionListing: Sendable, Equatable {
    public enum Kind: String, Sendable { case photographer, photo }

    public var kind: Kind
    /// The photographer's name or the photo's id.
    public var value: String
    public var excluded: Date
    /// For a photo: the photographer whose `delete --photographer` excluded it; nil for `delete ID`.
    public var photographer: String?

    /// The command that excluded it, as the user would type it again.
    public var command: String {
        switch kind {
        case .photographer: "delete --photographer \(Self.quoted(value))"
        case .photo: photographer.map { "delete --photographer \(Self.quoted($0))" } ?? "delete \(value)"
        }
    }

    /// `'Ana Lima'` for the shell when it needs quotes.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.@".unicodeScalars.contains($0) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

import Foundation
import GraphStore

// The code samples of PersistentHistory.md, compiled (see GettingStartedSamples.swift).

struct PersistentHistoryModelSample {
    // doc: PersistentHistory.md #1
    final class Photographer: ManagedObject {
        @Attribute(.unique, .preservedOnDeletion) var name = ""
        @ToMany(inverse: \Photo.$whoTook, deletesOwnerWhenEmpty: true) var photos: [Photo]
    }

    final class Photo: ManagedObject {
        @Attribute(.unique, .preservedOnDeletion) var unique = ""
        @Attribute(.tracked, .preservedOnDeletion) var title = ""
        @Attribute var views = 0
        @ToOne(deleteRule: .nullify, .tracked, .preservedOnDeletion) var whoTook: Photographer?
    }
    // end doc
}

struct PersistentHistoryReadingSample {
    let model: ManagedObjectModel
    let path: String

    func run() throws { // scaffold
        // doc: PersistentHistory.md #2
        let container = try PersistentContainer(model: model, location: .file(path), tracksHistory: true, transactionAuthor: "app")
        let context = container.newContext()
        context.transactionAuthor = "fetch run 42"
        context.name = "fetcher"
        // … insert, change, delete, then:
        try context.save()

        var token = HistoryToken.start  // or a token kept from the last time
        let page = try container.history(after: token, entity: "Photo")
        for transaction in page.transactions {
            for change in transaction.changes where change.kind == .deleted {
                print(transaction.author ?? "-", change.key, change.tombstone["title"] ?? .null)
            }
        }
        token = page.token  // keep it as text: token.description, HistoryToken(text)
        try container.deleteHistory(before: Date().addingTimeInterval(-90 * 86_400))
        // end doc
        _ = token
    }
}
